import type { Tx } from "@/lib/db";
import { OBLIGATION_LINE_SELECT } from "@/lib/obligations/view";
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
// deadline first. A range of the partial index obligations_org_open_deadline_idx (migration
// 0005) that stops after `limit` rows (plus the ties of the last deadline day, sorted), so
// it stays live even where the overview's totals come from a snapshot.
export async function listMostOverdue(tx: Tx, input: ListMostOverdueInput): Promise<OverdueItem[]> {
  if (input.limit <= 0) return [];
  const rows = await tx.obligation.findMany({
    where: { organizationId: input.organizationId, status: { not: "RECONCILED" }, deadline: { lt: toDate(input.today) } },
    orderBy: [{ deadline: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    take: input.limit,
    select: { ...OBLIGATION_LINE_SELECT, status: true },
  });
  const dayMs = 86_400_000;
  const todayMs = toDate(input.today).getTime();
  return rows.map(
    (o): OverdueItem => ({
      id: o.id,
      reference: o.reference,
      organization_role: o.organizationRole as Role,
      counterparty: o.organizationRole === "creditor" ? o.debtorName : o.creditorName,
      invoice_number: o.invoiceNumber,
      currency: o.currency,
      outstanding_minor: (o.amountMinor - o.allocatedMinor).toString(),
      deadline: fromDate(o.deadline),
      days_overdue: Math.round((todayMs - o.deadline.getTime()) / dayMs),
      status: o.status as Status,
    }),
  );
}
