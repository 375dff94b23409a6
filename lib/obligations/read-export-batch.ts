import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { todayUtc } from "@/lib/schemas/common";
import { listOrder, listParams, listWhere, SORT_SQL, type ObligationListQuery } from "@/lib/obligations/list-obligations";

// The rows of the CSV export of the obligations list (lib/dashboard/export-obligations.ts
// writes the lines): the same filters, search and order as GET /obligations (listWhere /
// listOrder), in keyset-paged batches so an export of any size holds one batch in memory and
// never re-scans skipped rows (OFFSET would).

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
  const q = input.query;
  const p = listParams(input.organizationId, q, input.today ?? todayUtc());
  const sort = q.sort ?? "created_at";
  const asc = (q.direction ?? (sort === "deadline" ? "asc" : "desc")) === "asc";
  const expr = raw.raw(SORT_SQL[sort]);
  const after = input.after;
  const rows = await query(tx)
    .selectFrom("obligations")
    .select([
      "id",
      "reference",
      "invoice_number",
      "obligation_type",
      "organization_role",
      "status",
      "creditor_name",
      "creditor_email",
      "debtor_name",
      "debtor_email",
      "currency",
      raw<string>`amount_minor::text`.as("amount"),
      raw<string>`allocated_minor::text`.as("allocated"),
      "deadline",
      "payment_reference",
      "external_namespace",
      "external_id",
      "expected_payment_date",
      "created_at",
      "updated_at",
      raw<string>`(${expr})::text`.as("sort_key"),
    ])
    .where((eb) => listWhere(eb, q, p))
    .$if(after !== undefined, (b) =>
      b.where(raw<boolean>`(${expr}, id) ${raw.raw(asc ? ">" : "<")} (${after?.key}::${raw.raw(SORT_TYPE[sort])}, ${after?.id}::uuid)`),
    )
    .orderBy(listOrder(q))
    .limit(input.batchSize)
    .execute();
  const last = rows.at(-1);
  return { rows, next: rows.length === input.batchSize && last ? { key: last.sort_key, id: last.id } : undefined };
}
