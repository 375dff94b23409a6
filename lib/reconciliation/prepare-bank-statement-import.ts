import { ZCsvMapping } from "@/lib/bank-statements/csv-mapping";
import type { ParsedStatement } from "@/lib/bank-statements/types";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { UploadedFile } from "@/lib/http/body";
import type { TImportStatementForm } from "@/lib/schemas/reconciliation";
import { parseUpload } from "@/lib/uploads/parse-pool";

const invalid = (message: string) => new AppError("validation_failed", message);

// The file of POST /bank-statements checked and parsed, in a parse worker (bounded in time
// and memory, lib/uploads/parse-pool.ts), before the request's transaction opens.
export async function prepareBankStatementImport(body: TImportStatementForm, files: Record<string, UploadedFile>): Promise<ParsedStatement> {
  const file = files.file;
  if (!file) throw invalid("file: a statement file is required");
  if (file.bytes.length > env().MAX_UPLOAD_BYTES) throw new AppError("payload_too_large", `file: larger than ${env().MAX_UPLOAD_BYTES} bytes`);
  const csvMapping = parseCsvMapping(body.csv_mapping);
  return parseUpload({ kind: "statement", bytes: file.bytes, format: body.format, csvMapping }, file);
}

function parseCsvMapping(raw: string | undefined) {
  if (raw === undefined || raw.trim() === "") return undefined;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw invalid("csv_mapping: must be a JSON object");
  }
  const r = ZCsvMapping.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    const path = ["csv_mapping", ...issue.path.map(String)].join(".");
    throw invalid(`${path}: ${issue.message}`);
  }
  return r.data;
}
