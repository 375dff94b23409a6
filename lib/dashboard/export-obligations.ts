import type { Tx } from "@/lib/db";
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

// A spreadsheet runs a cell that starts with = + - @ (or a tab / carriage return, which
// some strip first) as a formula: such text cells get a leading apostrophe. Exported
// amounts and dates never start with one, so numbers stay numbers.
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (cells: readonly string[]) => cells.map(csvCell).join(",");
