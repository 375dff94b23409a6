import type { TCsvMapping } from "@/lib/bank-statements/csv-mapping";
import { boundForImport } from "@/lib/bank-statements/bound-for-import";
import { parseStatement } from "@/lib/bank-statements/parse-statement";
import { type ParsedStatement, StatementError, type StatementFormat } from "@/lib/bank-statements/types";
import { type AllowedType, sniffContentType } from "@/lib/documents/sniff";
import { type ReadResult, readEinvoice } from "@/lib/einvoice/read-einvoice";
import { AppError, type ErrorCode } from "@/lib/errors";
import { type MultipartEntries, readMultipart } from "@/lib/uploads/read-multipart";

// One parse of an uploaded file, as a worker thread runs it (lib/uploads/worker.ts): plain
// data in, plain data out (the message is copied between threads, the bytes are moved),
// every refusal an error code and message of the envelope. A request's multipart body is
// read here too (`multipart`: its fields, and its files with their SHA-256).
export type ParseJob =
  | { kind: "multipart"; bytes: Uint8Array; contentType: string }
  | { kind: "einvoice"; bytes: Uint8Array }
  | { kind: "statement"; bytes: Uint8Array; format?: StatementFormat; csvMapping?: TCsvMapping }
  | { kind: "document"; bytes: Uint8Array; filename: string };

export type ParseValue = { multipart: MultipartEntries; einvoice: ReadResult; statement: ParsedStatement; document: AllowedType };

export type ParseOutcome = { ok: true; value: unknown } | { ok: false; code: ErrorCode; message: string };

// The refusal of a file that cannot be read within the bounds, per kind of upload.
export const REFUSAL_CODE: Record<ParseJob["kind"], ErrorCode> = {
  multipart: "malformed_request",
  einvoice: "einvoice_unreadable",
  statement: "statement_unreadable",
  document: "unsupported_media_type",
};

export async function runParseJob(job: ParseJob): Promise<ParseOutcome> {
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  try {
    switch (job.kind) {
      case "multipart":
        return { ok: true, value: await readMultipart(bytes, job.contentType) };
      case "einvoice":
        return { ok: true, value: await readEinvoice(bytes) };
      case "statement":
        return { ok: true, value: boundForImport(parseStatement(bytes, { format: job.format, csvMapping: job.csvMapping })) };
      case "document":
        return { ok: true, value: await sniffContentType(bytes, job.filename) };
    }
  } catch (err) {
    if (err instanceof AppError) return { ok: false, code: err.code, message: err.message };
    if (err instanceof StatementError) {
      if (err.kind === "unsupported") return { ok: false, code: "unsupported_media_type", message: err.message };
      if (err.kind === "too_many") return { ok: false, code: "validation_failed", message: err.message };
      return { ok: false, code: "statement_unreadable", message: err.message };
    }
    // A parser's own failure on hostile input (a stack overflow, say) is still bad input.
    return { ok: false, code: REFUSAL_CODE[job.kind], message: job.kind === "multipart" ? "multipart body could not be parsed" : "the file could not be read" };
  }
}
