import type { Tx } from "@/lib/db";
import { OBLIGATION_STATUSES } from "@/lib/schemas/obligations";
import { fromDate, toDate, todayUtc } from "@/lib/schemas/common";

type Status = (typeof OBLIGATION_STATUSES)[number];
type Role = "creditor" | "debtor";

export type OutstandingTotal = { currency: string; organization_role: Role; count: number; amount_minor: string; allocated_minor: string; outstanding_minor: string };
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

// The numbers of the dashboard overview, for one organization:
//  - counts by status (every status present, 0 when none) and the total,
//  - what is outstanding (amount - allocated) of the obligations not yet RECONCILED, by
//    currency and by the organization's role (owed to it / owed by it),
//  - what is overdue: deadline before today (UTC) and not RECONCILED; totals by currency
//    and role, and the `overdueLimit` most overdue obligations.
// Aggregates run in the database (grouped sums of bigint columns), never over every row
// in memory.
export async function summarizeObligations(tx: Tx, organizationId: string, opts: { today?: string; overdueLimit?: number } = {}) {
  const today = opts.today ?? todayUtc();
  const open = { organizationId, status: { not: "RECONCILED" } };
  const overdueWhere = { ...open, deadline: { lt: toDate(today) } };

  const byStatus = await tx.obligation.groupBy({ by: ["status"], where: { organizationId }, _count: { _all: true } });
  const outstanding = await tx.obligation.groupBy({
    by: ["currency", "organizationRole"],
    where: open,
    _count: { _all: true },
    _sum: { amountMinor: true, allocatedMinor: true },
  });
  const overdueTotals = await tx.obligation.groupBy({
    by: ["currency", "organizationRole"],
    where: overdueWhere,
    _count: { _all: true },
    _sum: { amountMinor: true, allocatedMinor: true },
  });
  const overdueRows = await tx.obligation.findMany({
    where: overdueWhere,
    orderBy: [{ deadline: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    take: opts.overdueLimit ?? 10,
    select: {
      id: true,
      reference: true,
      organizationRole: true,
      debtorName: true,
      creditorName: true,
      invoiceNumber: true,
      currency: true,
      amountMinor: true,
      allocatedMinor: true,
      deadline: true,
      status: true,
    },
  });

  const counts = Object.fromEntries(OBLIGATION_STATUSES.map((s) => [s, 0])) as Record<Status, number>;
  for (const r of byStatus) if (r.status in counts) counts[r.status as Status] = r._count._all;

  const totals = (rows: typeof outstanding): OutstandingTotal[] =>
    rows
      .map((r) => {
        const amount = r._sum.amountMinor ?? 0n;
        const allocated = r._sum.allocatedMinor ?? 0n;
        return {
          currency: r.currency,
          organization_role: r.organizationRole as Role,
          count: r._count._all,
          amount_minor: amount.toString(),
          allocated_minor: allocated.toString(),
          outstanding_minor: (amount - allocated).toString(),
        };
      })
      .sort((a, b) => (a.organization_role === b.organization_role ? (a.currency < b.currency ? -1 : 1) : a.organization_role === "creditor" ? -1 : 1));

  const dayMs = 86_400_000;
  const todayMs = toDate(today).getTime();
  return {
    today,
    total: Object.values(counts).reduce((a, b) => a + b, 0),
    counts,
    outstanding: totals(outstanding),
    overdue: {
      count: overdueTotals.reduce((n, r) => n + r._count._all, 0),
      totals: totals(overdueTotals),
      items: overdueRows.map(
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
      ),
    },
  };
}

export type ObligationSummary = Awaited<ReturnType<typeof summarizeObligations>>;
