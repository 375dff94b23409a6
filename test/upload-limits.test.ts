import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Api } from "./support/api";
import { newOrg } from "./support/fixtures";
import { startServer, type TestServer } from "./support/server";

// The parse worker's heap limit, on a server of its own with a small one (64 MB, one
// worker): a file whose parse needs more is refused in the envelope, the worker is replaced,
// and the next upload is read as usual. docs/security.md, "Uploads and parsers".
let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    databaseUrl: inject("databaseUrl"),
    label: "upload-limits",
    env: { UPLOAD_PARSE_MEMORY_MB: "64", UPLOAD_PARSE_WORKERS: "1" },
  });
});
afterAll(async () => {
  await server?.stop();
});

const form = (bytes: Uint8Array, fields: Record<string, string> = {}) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append("file", new Blob([new Uint8Array(bytes)]), "upload");
  return f;
};

describe("parse worker limits", () => {
  it("refuses a file whose parse needs more heap than the limit with 422, then reads the next file", { timeout: 300_000 }, async () => {
    const org = await newOrg("Upload Limits");
    const api = new Api(server.baseUrl, org.apiKey);
    // 3 million CSV cells of two characters: a string and an array slot each, over 64 MB.
    const cells = Buffer.from(`${"12;".repeat(3_000_000)}\n`);
    const r = await api.call("POST", "/bank-statements", { form: form(cells, { format: "csv" }) });
    expect(r.status, r.text).toBe(422);
    expect(r.body).toEqual({ error: { code: "statement_unreadable", message: "the statement needs more than 64 MB of memory to be read" } });

    const cii = readFileSync(path.join(__dirname, "fixtures/einvoice/en16931/cii/CII_example1.xml"));
    const ok = await api.call("POST", "/obligation-imports", { form: form(cii, { dry_run: "true" }) });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.request.external_reference.id).toBe("57151520:12115118");
  });
});
