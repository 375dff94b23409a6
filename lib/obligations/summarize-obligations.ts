import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { listMostOverdue } from "@/lib/obligations/list-most-overdue";
import { OBLIGATION_STATUSES } from "@/lib/schemas/obligations";
import { todayUtc } from "@/lib/schemas/common";

type Status = (typeof OBLIGATION_STATUSES)[number];
type Role = "creditor" | "debtor";

export type OutstandingTotal = {
  currency: string;
  organization_role: Role;
  count: number;
  amount_minor: string;
  allocated_minor: string;
  outstanding_minor: string;
};

// The numbers of the dashboard overview, for one organization:
//  - counts by status (every status present, 0 when none) and the total,
//  - what is outstanding (amount - allocated) of the obligations not yet RECONCILED, by
//    currency and by the organization's role (owed to it / owed by it),
//  - what is overdue: deadline before today (UTC) and not RECONCILED; totals by currency
//    and role, and the `overdueLimit` most overdue obligations (lib/obligations/list-most-overdue.ts;
//    0: none).
// Aggregates run in the database in one scan (grouped sums of the bigint columns, added up
// here with bigint), never over every row in memory.
export type SummarizeObligationsInput = { organizationId: string; today?: string; overdueLimit?: number };

export async function summarizeObligations(tx: Tx, input: SummarizeObligationsInput) {
  const { organizationId, ...opts } = input;
  const today = opts.today ?? todayUtc();

  // One pass over the organization's obligations: a row per (status, currency, role) with
  // its sums, overall and for the overdue ones; everything else is added up from these.
  const overdue = raw`deadline < ${today}::date`;
  const groups = await query(tx)
    .selectFrom("obligations")
    .select([
      "status",
      "currency",
      "organization_role",
      raw<number>`count(*)::int`.as("n"),
      raw<string>`sum(amount_minor)::text`.as("amount"),
      raw<string>`sum(allocated_minor)::text`.as("allocated"),
      raw<number>`(count(*) FILTER (WHERE ${overdue}))::int`.as("overdue_n"),
      raw<string>`coalesce(sum(amount_minor) FILTER (WHERE ${overdue}), 0)::text`.as("overdue_amount"),
      raw<string>`coalesce(sum(allocated_minor) FILTER (WHERE ${overdue}), 0)::text`.as("overdue_allocated"),
    ])
    .where("organization_id", "=", organizationId)
    .groupBy(["status", "currency", "organization_role"])
    .execute();
  const items = await listMostOverdue(tx, { organizationId, today, limit: opts.overdueLimit ?? 10 });

  const counts = Object.fromEntries(OBLIGATION_STATUSES.map((st) => [st, 0])) as Record<Status, number>;
  for (const g of groups) if (g.status in counts) counts[g.status as Status] += g.n;

  // open = not RECONCILED; keyed by currency and role
  const sum = (overdue: boolean): OutstandingTotal[] => {
    const acc = new Map<string, { currency: string; role: Role; count: number; amount: bigint; allocated: bigint }>();
    for (const g of groups) {
      if (g.status === "RECONCILED") continue;
      const n = overdue ? g.overdue_n : g.n;
      if (n === 0) continue;
      const key = `${g.organization_role}|${g.currency}`;
      const a = acc.get(key) ?? { currency: g.currency, role: g.organization_role as Role, count: 0, amount: 0n, allocated: 0n };
      a.count += n;
      a.amount += BigInt(overdue ? g.overdue_amount : g.amount);
      a.allocated += BigInt(overdue ? g.overdue_allocated : g.allocated);
      acc.set(key, a);
    }
    return [...acc.values()]
      .map((a) => ({
        currency: a.currency,
        organization_role: a.role,
        count: a.count,
        amount_minor: a.amount.toString(),
        allocated_minor: a.allocated.toString(),
        outstanding_minor: (a.amount - a.allocated).toString(),
      }))
      .sort((a, b) => (a.organization_role === b.organization_role ? (a.currency < b.currency ? -1 : 1) : a.organization_role === "creditor" ? -1 : 1));
  };
  const overdueTotals = sum(true);

  return {
    today,
    total: Object.values(counts).reduce((a, b) => a + b, 0),
    counts,
    outstanding: sum(false),
    overdue: {
      count: overdueTotals.reduce((n, r) => n + r.count, 0),
      totals: overdueTotals,
      items,
    },
  };
}

export type ObligationSummary = Awaited<ReturnType<typeof summarizeObligations>>;
