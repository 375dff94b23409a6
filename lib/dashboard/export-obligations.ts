import { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/db";
import { fromDate, todayUtc } from "@/lib/schemas/common";
import { listOrder, listWhere, SORT_SQL, type ObligationListQuery } from "@/lib/obligations/list-obligations";
import { minorToDecimal } from "@/lib/money/format";

// The CSV export of the obligations list: the same filters, search and order as
// GET /obligations (listWhere / listOrder), read in keyset-paged batches so an export of any
// size holds one batch in memory and never re-scans skipped rows (OFFSET would).

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

// The type of each sort key, to compare the cursor's text form with the column exactly.
const SORT_TYPE: Record<keyof typeof SORT_SQL, string> = {
  created_at: "timestamptz",
  updated_at: "timestamptz",
  deadline: "date",
  amount: "bigint",
  outstanding: "bigint",
};

export type ExportCursor = { key: string; id: string };
export type ExportObligationsBatchInput = {
  organizationId: string;
  query: Omit<ObligationListQuery, "limit" | "offset">;
  after?: ExportCursor;
  batchSize: number;
  today?: string;
};

type Row = {
  id: string;
  reference: string;
  invoice_number: string;
  obligation_type: string;
  organization_role: string;
  status: string;
  creditor_name: string;
  creditor_email: string;
  debtor_name: string;
  debtor_email: string;
  currency: string;
  amount: string;
  allocated: string;
  deadline: Date;
  payment_reference: string;
  external_namespace: string;
  external_id: string;
  expected_payment_date: Date | null;
  created_at: Date;
  updated_at: Date;
  sort_key: string;
};

// One batch of CSV lines (without line ends) after the cursor, and the cursor of its last row
// (undefined when this was the last batch).
export async function exportObligationsBatch(tx: Tx, input: ExportObligationsBatchInput): Promise<{ lines: string[]; next?: ExportCursor }> {
  const today = input.today ?? todayUtc();
  const q = { ...input.query, limit: input.batchSize, offset: 0 };
  const sort = q.sort ?? "created_at";
  const asc = (q.direction ?? (sort === "deadline" ? "asc" : "desc")) === "asc";
  const expr = Prisma.raw(SORT_SQL[sort]);
  const keyset = input.after
    ? asc
      ? Prisma.sql`AND (${expr}, id) > (${input.after.key}::${Prisma.raw(SORT_TYPE[sort])}, ${input.after.id}::uuid)`
      : Prisma.sql`AND (${expr}, id) < (${input.after.key}::${Prisma.raw(SORT_TYPE[sort])}, ${input.after.id}::uuid)`
    : Prisma.empty;
  const rows = await tx.$queryRaw<Row[]>`
    SELECT id, reference, invoice_number, obligation_type, organization_role, status,
           creditor_name, creditor_email, debtor_name, debtor_email, currency,
           amount_minor::text AS amount, allocated_minor::text AS allocated, deadline,
           payment_reference, external_namespace, external_id, expected_payment_date, created_at, updated_at,
           (${expr})::text AS sort_key
    FROM obligations
    WHERE ${listWhere(input.organizationId, q, today)} ${keyset}
    ORDER BY ${listOrder(q)}
    LIMIT ${input.batchSize}`;
  const lines = rows.map((r) => csvLine(csvRecord(r, today)));
  const last = rows.at(-1);
  return { lines, next: rows.length === input.batchSize && last ? { key: last.sort_key, id: last.id } : undefined };
}

function csvRecord(r: Row, today: string): string[] {
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
