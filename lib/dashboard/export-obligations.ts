import type { Tx } from "@/lib/db/client";
import { fromDate, todayUtc } from "@/lib/schemas/common";
import { readExportBatch, type ExportCursor, type ExportObligationsBatchInput, type ExportRow } from "@/lib/obligations/read-export-batch";
import { minorToDecimal } from "@/lib/money/format";

export type { ExportCursor };

// The CSV export of the obligations list: the same filters, search and order as
// GET /obligations, read in keyset-paged batches (lib/obligations/read-export-batch.ts), so an
// export of any size holds one batch in memory; here the rows become CSV lines.

export const CSV_COLUMNS = [
  "reference",
  "invoice_number",
  "obligation_type",
  "organization_role",
  "status",
  "counterparty_name",
  "counterparty_email",
  "currency",
  "amount",
  "allocated",
  "outstanding",
  "deadline",
  "overdue",
  "payment_reference",
  "external_namespace",
  "external_id",
  "expected_payment_date",
  "created_at",
  "updated_at",
] as const;

// One batch of CSV lines (without line ends) after the cursor, and the cursor of its last row
// (undefined when this was the last batch). The rows come from lib/obligations/read-export-batch.ts.
export async function exportObligationsBatch(tx: Tx, input: ExportObligationsBatchInput): Promise<{ lines: string[]; next?: ExportCursor }> {
  const today = input.today ?? todayUtc();
  const { rows, next } = await readExportBatch(tx, { ...input, today });
  return { lines: rows.map((r) => csvLine(csvRecord(r, today))), next };
}

function csvRecord(r: ExportRow, today: string): string[] {
  const creditor = r.organization_role === "creditor";
  const deadline = fromDate(r.deadline);
  return [
    r.reference,
    r.invoice_number,
    r.obligation_type,
    r.organization_role,
    r.status,
    creditor ? r.debtor_name : r.creditor_name,
    creditor ? r.debtor_email : r.creditor_email,
    r.currency,
    minorToDecimal(r.amount, r.currency),
    minorToDecimal(r.allocated, r.currency),
    minorToDecimal((BigInt(r.amount) - BigInt(r.allocated)).toString(), r.currency),
    deadline,
    r.status !== "RECONCILED" && deadline < today ? "true" : "false",
    r.payment_reference,
    r.external_namespace,
    r.external_id,
    fromDate(r.expected_payment_date),
    r.created_at.toISOString(),
    r.updated_at.toISOString(),
  ];
}

// A spreadsheet runs a cell that starts with = + - @ as a formula, also after leading
// whitespace (some strip it) and after a tab or line break (some split there); and a reader
// that splits on ";" (or tab, "|") instead of "," starts a new cell after each. So every
// place a cell could start — the value's start and the character after , ; | tab CR LF —
// is checked after skipping spaces: a formula character there gets an apostrophe before it,
// and a value starting (after spaces) with tab, CR or LF gets one in front. A cell holding a
// quote, a separator of any kind, a line break or outer spaces is quoted, so that readers
// that honour quotes keep it whole. Exported amounts and dates never need it.
const CELL_STARTS = new Set([",", ";", "|", "\t", "\r", "\n"]);
const FORMULA = new Set(["=", "+", "-", "@"]);

export function csvCell(value: string): string {
  let out = "";
  let atStart = true; // at a place a cell could start (spaces skipped)
  for (const c of value) {
    if (atStart && FORMULA.has(c)) out += "'";
    out += c;
    if (CELL_STARTS.has(c)) atStart = true;
    else if (c !== " ") atStart = false;
  }
  const first = value[value.length - value.replace(/^ +/, "").length];
  if (first === "\t" || first === "\r" || first === "\n") out = `'${out}`;
  return /[",;|\t\r\n]|^ | $/.test(out) ? `"${out.replace(/"/g, '""')}"` : out;
}

export const csvLine = (cells: readonly string[]) => cells.map(csvCell).join(",");
