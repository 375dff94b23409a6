import type { Tx } from "@/lib/db";
import { summarizeObligations, type ObligationSummary } from "@/lib/obligations/summarize-obligations";
import { ageReceivables, type AgingSeries } from "@/lib/dashboard/aging";
import { expectCash, type CashSeries } from "@/lib/dashboard/cash-expected";

// What an overview snapshot holds (overview_snapshots.data, migration 0014): the summary
// without its most-overdue list (read live, lib/obligations/list-most-overdue.ts), the aging
// and the cash series, exactly as the page renders them (money as decimal strings).
export type OverviewTotals = Omit<ObligationSummary, "overdue"> & { overdue: Omit<ObligationSummary["overdue"], "items"> };
export type OverviewFigures = { summary: OverviewTotals; aging: AgingSeries[]; cash: CashSeries[] };
export type StoredOverview = { figures: OverviewFigures; computedAt: string };

// The transaction-scoped advisory lock that serializes the computations of one
// organization's snapshot (a page that finds none for today waits on it; the worker only
// tries it): two instances never compute the same organization at once.
export const overviewLockKey = (organizationId: string) => `overview:${organizationId}`;

export type StoreOverviewSnapshotInput = { organizationId: string; today: string };

// Computes the organization's overview for `today` with the live functions (the same scans
// the page runs for a small organization) and stores it, replacing the previous snapshot.
// The caller holds the lock above. computed_at is when the computation started, on the
// database's clock (the figures reflect the data from then on).
export async function storeOverviewSnapshot(tx: Tx, input: StoreOverviewSnapshotInput): Promise<StoredOverview> {
  const { organizationId, today } = input;
  const [{ started }] = await tx.$queryRaw<{ started: Date }[]>`SELECT clock_timestamp() AS started`;
  const { overdue, ...rest } = await summarizeObligations(tx, { organizationId, today, overdueLimit: 0 });
  const aging = await ageReceivables(tx, { organizationId, today });
  const cash = await expectCash(tx, { organizationId, today });
  const figures: OverviewFigures = { summary: { ...rest, overdue: { count: overdue.count, totals: overdue.totals } }, aging, cash };
  await tx.$executeRaw`
    INSERT INTO overview_snapshots (organization_id, computed_for, computed_at, obligation_count, data)
    VALUES (${organizationId}::uuid, ${today}::date, ${started}, ${rest.total}, ${JSON.stringify(figures)}::jsonb)
    ON CONFLICT (organization_id) DO UPDATE
      SET computed_for = excluded.computed_for, computed_at = excluded.computed_at,
          obligation_count = excluded.obligation_count, data = excluded.data`;
  return { figures, computedAt: started.toISOString() };
}
