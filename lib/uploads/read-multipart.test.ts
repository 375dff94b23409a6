import { describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/crypto";
import { AppError } from "@/lib/errors";
import { readMultipart } from "./read-multipart";

// A body as a client sends it: FormData through a Request, as bytes with its content type.
async function encode(form: FormData): Promise<{ bytes: Uint8Array; type: string }> {
  const req = new Request("http://x/", { method: "POST", body: form });
  return { bytes: new Uint8Array(await req.arrayBuffer()), type: req.headers.get("content-type") ?? "" };
}

describe("readMultipart", () => {
  it("reads fields and files in order, each file with the SHA-256 the Idempotency-Key fingerprint has always used", async () => {
    const file = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    const form = new FormData();
    form.append("expected_version", "3");
    form.append("note", "Grüße ✓");
    form.append("file", new Blob([file], { type: "application/pdf" }), "Rechnung März.pdf");
    const { bytes, type } = await encode(form);
    const entries = await readMultipart(bytes, type);
    expect(entries.map(([k, v]) => [k, typeof v === "string" ? v : v.name])).toEqual([
      ["expected_version", "3"],
      ["note", "Grüße ✓"],
      ["file", "Rechnung März.pdf"],
    ]);
    const read = entries[2][1];
    if (typeof read === "string") throw new Error("not a file");
    expect(Buffer.from(read.bytes).equals(Buffer.from(file))).toBe(true);
    expect(read.sha256).toBe(sha256Hex(Buffer.from(file)));
    expect(read.type).toBe("application/pdf");
    // its own buffer, whole: what the parse worker moves back to the request thread
    expect(read.bytes.byteOffset).toBe(0);
    expect(read.bytes.byteLength).toBe(read.bytes.buffer.byteLength);
  });

  it("refuses a body that is not multipart as it says with 400 malformed_request", async () => {
    const { bytes, type } = await encode(new FormData());
    for (const [body, contentType] of [
      [new TextEncoder().encode("garbage"), type],
      [bytes.subarray(0, bytes.length - 5), type],
      [new TextEncoder().encode("garbage"), "multipart/form-data"],
    ] as const) {
      const err = await readMultipart(body, contentType).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("malformed_request");
    }
  });
});
