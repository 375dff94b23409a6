import { createHash } from "node:crypto";
import { AppError } from "@/lib/errors";

// One entry of a multipart/form-data body: a field's text, or a file with its bytes and
// their SHA-256 (hex), which serves both the Idempotency-Key fingerprint and the stored file's
// digest, so the file is hashed once.
export type MultipartFile = { name: string; type: string; bytes: Uint8Array; sha256: string };
export type MultipartEntries = [string, string | MultipartFile][];

// Reads a multipart/form-data body with undici's own parser (`Response.formData()`, what the
// pipeline used on the request thread before), so every body reads exactly as before; it runs
// in a parse worker (lib/uploads/parse-pool.ts), and the files' bytes move back by transfer.
export async function readMultipart(bytes: Uint8Array, contentType: string): Promise<MultipartEntries> {
  let form: FormData;
  try {
    const body = new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new AppError("malformed_request", "multipart body could not be parsed");
  }
  const entries: MultipartEntries = [];
  for (const [k, v] of form.entries()) {
    if (typeof v === "string") entries.push([k, v]);
    else {
      const fileBytes = new Uint8Array(await v.arrayBuffer());
      entries.push([k, { name: v.name, type: v.type, bytes: fileBytes, sha256: createHash("sha256").update(fileBytes).digest("hex") }]);
    }
  }
  return entries;
}
