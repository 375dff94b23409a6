import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createDeflate, deflateSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_EINVOICE_BYTES } from "@/lib/einvoice/read-einvoice";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { pdfWithEmbeddedStream } from "./support/raw-pdf";

// POST /obligation-imports with PDFs whose invoice attachment is a compression bomb: a
// few hundred KB that inflate to hundreds of MB (or, nested, far more). The attachment is
// decoded only up to the bound the import applies to XML uploads, so such a PDF is a 422
// naming the bound and the server keeps answering.

const CII1 = readFileSync(join(__dirname, "fixtures/einvoice/en16931/cii/CII_example1.xml")); // 250.33 EUR

// Zeros deflated chunk by chunk, so the test never holds the inflated size in memory.
async function deflateZeros(bytes: number): Promise<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024);
  const z = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  z.on("data", (d: Buffer) => out.push(d));
  const ended = once(z, "end");
  for (let left = bytes; left > 0; left -= chunk.length) {
    if (!z.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) await once(z, "drain");
  }
  z.end();
  await ended;
  return Buffer.concat(out);
}

function form(bytes: Uint8Array, fields: Record<string, string> = {}) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append("file", new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), "factur-x.pdf");
  return f;
}

describe("obligation imports: PDF compression bombs", () => {
  let org: OrgFixture;
  let bomb: Buffer; // 200 MiB of zeros, deflated
  const imp = (bytes: Uint8Array, fields?: Record<string, string>) => org.api.call("POST", "/obligation-imports", { form: form(bytes, fields) });
  const expectBound = (r: Awaited<ReturnType<typeof imp>>) => {
    expect(r.status, r.text).toBe(422);
    expect(r.body.error.code).toBe("einvoice_unreadable");
    expect(r.body.error.message).toContain(`factur-x.xml expands beyond ${MAX_EINVOICE_BYTES} bytes`);
  };

  beforeAll(async () => {
    org = await newOrg("Bomb Target GmbH");
    bomb = await deflateZeros(200 * 1024 * 1024);
  }, 120_000);

  it("a Flate attachment inflating to 200 MiB is 422 einvoice_unreadable naming the bound, dry run or not", async () => {
    const pdf = pdfWithEmbeddedStream({ streamDict: "/Filter /FlateDecode", data: bomb });
    expect(pdf.length).toBeLessThan(MAX_EINVOICE_BYTES);
    expectBound(await imp(pdf));
    expectBound(await imp(pdf, { dry_run: "true" }));
  });

  it("a nested [/FlateDecode /FlateDecode] attachment of a few KB is refused the same way", async () => {
    const pdf = pdfWithEmbeddedStream({ streamDict: "/Filter [/FlateDecode /FlateDecode]", data: deflateSync(bomb) });
    expect(pdf.length).toBeLessThan(64 * 1024);
    expectBound(await imp(pdf, { dry_run: "true" }));
  });

  it("after the bombs the server still answers and imports a Factur-X PDF", async () => {
    expect((await org.api.get("/obligations")).status).toBe(200);
    const pdf = pdfWithEmbeddedStream({ streamDict: "/Filter /FlateDecode", data: deflateSync(CII1) });
    const r = await imp(pdf);
    expect(r.status, r.text).toBe(201);
    expect(r.body.import).toMatchObject({ source: "pdf", format: "cii" });
    expect(r.body.result.obligation.amount_minor).toBe("25033");
  });

  it("an attachment of exactly the bound is read as usual; one byte more is refused", async () => {
    const exact = Buffer.concat([CII1, Buffer.alloc(MAX_EINVOICE_BYTES - CII1.length, 0x20)]);
    org = await newOrg("Bound Edge AG"); // the invoice is imported above: a dry run there would be 409
    const r = await imp(pdfWithEmbeddedStream({ streamDict: "/Filter /FlateDecode", data: deflateSync(exact) }), { dry_run: "true" });
    expect(r.status, r.text).toBe(200);
    expect(r.body.request).toMatchObject({ amount_minor: "25033", currency: "EUR" });
    const over = Buffer.concat([exact, Buffer.from(" ")]);
    expectBound(await imp(pdfWithEmbeddedStream({ streamDict: "/Filter /FlateDecode", data: deflateSync(over) }), { dry_run: "true" }));
  });

  // PDFs written by other software (test/fixtures/einvoice/pdf/SOURCE.txt): Chromium's page,
  // qpdf's attachment, once with object streams and a cross-reference stream, once classic.
  it("reads the invoice from PDFs that Chromium and qpdf wrote; an encrypted one is 422 naming it", async () => {
    const pdf = (name: string) => readFileSync(join(__dirname, "fixtures/einvoice/pdf", name));
    for (const name of ["chromium-qpdf-object-streams.pdf", "chromium-qpdf-classic.pdf"]) {
      const r = await imp(pdf(name), { dry_run: "true" });
      expect(r.status, `${name}: ${r.text}`).toBe(200);
      expect(r.body.request, name).toMatchObject({ amount_minor: "25033", currency: "EUR" });
    }
    const encrypted = await imp(pdf("chromium-qpdf-encrypted.pdf"), { dry_run: "true" });
    expect(encrypted.status).toBe(422);
    expect(encrypted.body.error.code).toBe("einvoice_unreadable");
    expect(encrypted.body.error.message).toContain("encrypted");
  });
});
