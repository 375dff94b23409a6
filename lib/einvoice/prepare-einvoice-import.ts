import { AppError } from "@/lib/errors";
import type { UploadedFile } from "@/lib/http/body";
import { MAX_EINVOICE_BYTES, type ReadResult } from "@/lib/einvoice/read-einvoice";
import { parseUpload } from "@/lib/uploads/parse-pool";

// The file of POST /obligation-imports checked and read, in a parse worker (bounded in time
// and memory, lib/uploads/parse-pool.ts), before the request's transaction opens.
export async function prepareEinvoiceImport(files: Record<string, UploadedFile>): Promise<ReadResult> {
  const extra = Object.keys(files).filter((k) => k !== "file");
  if (extra.length) throw new AppError("validation_failed", extra.map((k) => `form.${k}: unknown file field`).join("; "));
  const file = files.file;
  if (!file) throw new AppError("validation_failed", "form.file: a file is required");
  if (file.bytes.length > MAX_EINVOICE_BYTES) throw new AppError("payload_too_large", `the file exceeds ${MAX_EINVOICE_BYTES} bytes`);
  if (file.bytes.length === 0) throw new AppError("validation_failed", "form.file: the file is empty");
  return parseUpload({ kind: "einvoice", bytes: file.bytes }, file);
}
