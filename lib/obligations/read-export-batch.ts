import { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { todayUtc } from "@/lib/schemas/common";
import { listOrder, listWhere, SORT_SQL, type ObligationListQuery } from "@/lib/obligations/list-obligations";

// The rows of the CSV export of the obligations list (lib/dashboard/export-obligations.ts
// writes the lines): the same filters, search and order as GET /obligations (listWhere /
// listOrder), in keyset-paged batches so an export of any size holds one batch in memory and
// never re-scans skipped rows (OFFSET would). Raw like the list it shares its WHERE with, until
// the list's statements are converted to lib/db/query.ts.

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

export type ExportRow = {
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

// One batch of rows after the cursor, and the cursor of its last row (undefined when this was
// the last batch).
export async function readExportBatch(tx: Tx, input: ExportObligationsBatchInput): Promise<{ rows: ExportRow[]; next?: ExportCursor }> {
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
  const rows = await tx.$queryRaw<ExportRow[]>`
    SELECT id, reference, invoice_number, obligation_type, organization_role, status,
           creditor_name, creditor_email, debtor_name, debtor_email, currency,
           amount_minor::text AS amount, allocated_minor::text AS allocated, deadline,
           payment_reference, external_namespace, external_id, expected_payment_date, created_at, updated_at,
           (${expr})::text AS sort_key
    FROM obligations
    WHERE ${listWhere(input.organizationId, q, today)} ${keyset}
    ORDER BY ${listOrder(q)}
    LIMIT ${input.batchSize}`;
  const last = rows.at(-1);
  return { rows, next: rows.length === input.batchSize && last ? { key: last.sort_key, id: last.id } : undefined };
}
