import { AppError } from "@/lib/errors";

// Reads a request body with a hard byte bound: Content-Length is checked first, then the
// stream is counted, so a lying or absent Content-Length cannot slip a larger body past.
export async function readBodyLimited(req: Request, limit: number): Promise<Buffer> {
  const declared = req.headers.get("content-length");
  if (declared && Number(declared) > limit) throw tooLarge(limit);
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

export function parseJsonBody(buf: Buffer): unknown {
  if (buf.length === 0) return undefined;
  try {
    return JSON.parse(buf.toString("utf8"));
  } catch {
    throw new AppError("malformed_request", "request body is not valid JSON");
  }
}

export type UploadedFile = { name: string; type: string; bytes: Buffer };

export async function parseMultipart(
  req: Request,
  buf: Buffer,
): Promise<{ fields: Record<string, string>; files: Record<string, UploadedFile> }> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new AppError("malformed_request", "expected a multipart/form-data body");
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(buf), { headers: { "content-type": type } }).formData();
  } catch {
    throw new AppError("malformed_request", "multipart body could not be parsed");
  }
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  for (const [k, v] of form.entries()) {
    if (typeof v === "string") fields[k] = v;
    else files[k] = { name: v.name, type: v.type, bytes: Buffer.from(await v.arrayBuffer()) };
  }
  return { fields, files };
}
