import type { AllowedType } from "@/lib/documents/sniff";
import { safeFilename } from "@/lib/documents/safe-filename";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { UploadedFile } from "@/lib/http/body";
import { parseUpload } from "@/lib/uploads/parse-pool";

// The file of a document upload checked (one part named `file`, size bound 413, not empty)
// and its content type sniffed (415) in a parse worker, before the request's transaction opens.
export async function prepareDocumentUpload(files: Record<string, UploadedFile>): Promise<AllowedType> {
  const extra = Object.keys(files).filter((k) => k !== "file");
  if (extra.length) throw new AppError("validation_failed", extra.map((k) => `form.${k}: unknown file field`).join("; "));
  const file = files.file;
  if (!file) throw new AppError("validation_failed", "form.file: a file is required");
  if (file.bytes.length > env().MAX_UPLOAD_BYTES) throw new AppError("payload_too_large", `the file exceeds ${env().MAX_UPLOAD_BYTES} bytes`);
  if (file.bytes.length === 0) throw new AppError("validation_failed", "form.file: the file is empty");
  return parseUpload({ kind: "document", bytes: file.bytes, filename: safeFilename(file.name) }, file);
}
