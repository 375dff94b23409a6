import { AppError } from "@/lib/errors";
import { rawBodyOf } from "@/lib/http/raw";
import { parseUpload } from "@/lib/uploads/parse-pool";
import { readMultipart } from "@/lib/uploads/read-multipart";

// Reads a request body with a hard byte bound: Content-Length is checked first, then the
// stream is counted, so a lying or absent Content-Length cannot slip a larger body past.
// A streamed body is joined once, into a buffer of its own (that parseMultipart may move).
export async function readBodyLimited(req: Request, limit: number): Promise<Buffer> {
  const declared = req.headers.get("content-length");
  if (declared && Number(declared) > limit) throw tooLarge(limit);
  const raw = rawBodyOf(req);
  if (raw) {
    if (raw.length > limit) throw tooLarge(limit);
    return raw;
  }
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const tooLarge = (limit: number) => new AppError("payload_too_large", `request body exceeds ${limit} bytes`);

// Input bounds, documented in the OpenAPI description (lib/openapi/intro.ts) and
// docs/reliability.md: JSON nests at most MAX_JSON_DEPTH arrays/objects deep (checked on the
// raw text before anything recursive — JSON.parse, the idempotency fingerprint, zod — runs),
// and no string may hold what PostgreSQL text cannot store (U+0000, lone UTF-16 surrogates).
export const MAX_JSON_DEPTH = 32;

export function parseJsonBody(buf: Buffer): unknown {
  if (buf.length === 0) return undefined;
  const text = buf.toString("utf8");
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new AppError("malformed_request", `request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("malformed_request", "request body is not valid JSON");
  }
  rejectUnstorable(value, "body");
  return value;
}

// Deepest nesting of [ and { outside string literals; stops counting once past the bound.
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) max = depth;
      if (max > MAX_JSON_DEPTH) return max;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

// U+0000 or a lone surrogate anywhere in a key or string value: 422 naming the field.
// Only called on values already bounded in depth (JSON above, flat query and form fields).
export function rejectUnstorable(v: unknown, path: string): void {
  if (typeof v === "string") {
    if (!storable(v)) {
      throw new AppError("validation_failed", `${path}: must not contain U+0000 or unpaired UTF-16 surrogates (not storable as text)`);
    }
  } else if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) rejectUnstorable(x, `${path}.${i}`);
  } else if (typeof v === "object" && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      if (!storable(k)) throw new AppError("validation_failed", `${path}: a property name contains U+0000 or an unpaired UTF-16 surrogate`);
      rejectUnstorable(x, `${path}.${k}`);
    }
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is exactly what PostgreSQL text cannot hold
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const storable = (s: string) => !UNSTORABLE.test(s);

// An uploaded file; sha256 (hex) of its bytes, computed once where the body is read.
export type UploadedFile = { name: string; type: string; bytes: Buffer; sha256: string };

// A multipart/form-data body, read in a parse worker (lib/uploads/read-multipart.ts): the
// request thread only checks the type, hands the bytes over (moved: `buf` is given up, see
// readBodyLimited) and checks what comes back as before. Bodies up to INLINE_MULTIPART_BYTES
// (the direct path reads those whole, in a buffer it may share) are read here, with the
// same function.
const INLINE_MULTIPART_BYTES = 256 * 1024;
export async function parseMultipart(req: Request, buf: Buffer): Promise<{ fields: Record<string, string>; files: Record<string, UploadedFile> }> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new AppError("malformed_request", "expected a multipart/form-data body");
  }
  // A small body (most uploads) is read here: a millisecond or two, and no wait for a worker.
  const entries =
    buf.length <= INLINE_MULTIPART_BYTES
      ? await readMultipart(buf, type)
      : await parseUpload({ kind: "multipart", bytes: buf, contentType: type }, { bytes: buf });
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  for (const [k, v] of entries) {
    rejectUnstorable(k, "form");
    if (typeof v === "string") {
      rejectUnstorable(v, `form.${k}`);
      fields[k] = v;
    } else {
      rejectUnstorable(v.name, `form.${k}.filename`);
      files[k] = { name: v.name, type: v.type, bytes: Buffer.from(v.bytes.buffer, v.bytes.byteOffset, v.bytes.byteLength), sha256: v.sha256 };
    }
  }
  return { fields, files };
}
