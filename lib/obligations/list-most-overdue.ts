import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import type { OBLIGATION_STATUSES } from "@/lib/schemas/obligations";
import { fromDate, toDate } from "@/lib/schemas/common";

type Status = (typeof OBLIGATION_STATUSES)[number];
type Role = "creditor" | "debtor";

export type OverdueItem = {
  id: string;
  reference: string;
  organization_role: Role;
  counterparty: string;
  invoice_number: string;
  currency: string;
  outstanding_minor: string;
  deadline: string;
  days_overdue: number;
  status: Status;
};

export type ListMostOverdueInput = { organizationId: string; today: string; limit: number };

// The `limit` most overdue obligations (deadline before today, not RECONCILED), oldest
// deadline first. One range of the partial index obligations_org_open_deadline_idx
// (organization_id, deadline, created_at, id) WHERE status <> 'RECONCILED' (migration 0014)
// that stops after `limit` entries, whatever the organization's size, so it stays live even
// where the overview's totals come from a snapshot. The status condition is written out (not
// a parameter) so that a generic plan of the prepared statement still matches the index's
// predicate.
export async function listMostOverdue(tx: Tx, input: ListMostOverdueInput): Promise<OverdueItem[]> {
  if (input.limit <= 0) return [];
  const rows = await query(tx)
    .selectFrom("obligations as o")
    .select([
      "o.id",
      "o.reference",
      "o.organization_role",
      "o.debtor_name",
      "o.creditor_name",
      "o.invoice_number",
      "o.currency",
      raw<string>`(o.amount_minor - o.allocated_minor)::text`.as("outstanding"),
      "o.deadline",
      "o.status",
    ])
    .where("o.organization_id", "=", input.organizationId)
    .where(raw<boolean>`o.status <> 'RECONCILED'`)
    .where(raw<boolean>`o.deadline < ${input.today}::date`)
    .orderBy("o.deadline")
    .orderBy("o.created_at")
    .orderBy("o.id")
    .limit(input.limit)
    .execute();
  const dayMs = 86_400_000;
  const todayMs = toDate(input.today).getTime();
  return rows.map(
    (o): OverdueItem => ({
      id: o.id,
      reference: o.reference,
      organization_role: o.organization_role as Role,
      counterparty: o.organization_role === "creditor" ? o.debtor_name : o.creditor_name,
      invoice_number: o.invoice_number,
      currency: o.currency,
      outstanding_minor: o.outstanding,
      deadline: fromDate(o.deadline),
      days_overdue: Math.round((todayMs - o.deadline.getTime()) / dayMs),
      status: o.status as Status,
    }),
  );
}
