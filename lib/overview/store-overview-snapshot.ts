import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { type Query, query } from "@/lib/db/query";
import { summarizeObligations, type ObligationSummary } from "@/lib/obligations/summarize-obligations";
import { ageReceivables, type AgingSeries } from "@/lib/overview/age-receivables";
import { expectCash, type CashSeries } from "@/lib/overview/expect-cash";

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

// The organization's obligations counted up to `max` index entries (a cost bounded by `max`,
// not by the organization): "above OVERVIEW_LIVE_MAX?" for the overview and its refresh.
export const obligationsUpTo = (k: Query, organizationId: string, max: number) =>
  k
    .selectFrom(k.selectFrom("obligations").select(raw`1`.as("x")).where("organization_id", "=", organizationId).limit(max).as("c"))
    .select(raw<number>`count(*)::int`.as("n"));

export type StoreOverviewSnapshotInput = { organizationId: string; today: string };

// Computes the organization's overview for `today` with the live functions (the same scans
// the page runs for a small organization) and stores it, replacing the previous snapshot.
// The caller holds the lock above. computed_at is when the computation started, on the
// database's clock (the figures reflect the data from then on).
export async function storeOverviewSnapshot(tx: Tx, input: StoreOverviewSnapshotInput): Promise<StoredOverview> {
  const { organizationId, today } = input;
  const k = query(tx);
  const {
    rows: [{ started }],
  } = await raw<{ started: Date }>`SELECT clock_timestamp() AS started`.execute(k);
  const { overdue, ...rest } = await summarizeObligations(tx, { organizationId, today, overdueLimit: 0 });
  const aging = await ageReceivables(tx, { organizationId, today });
  const cash = await expectCash(tx, { organizationId, today });
  const figures: OverviewFigures = { summary: { ...rest, overdue: { count: overdue.count, totals: overdue.totals } }, aging, cash };
  await k
    .insertInto("overview_snapshots")
    .values({
      organization_id: organizationId,
      computed_for: raw<Date>`${today}::date`,
      computed_at: started,
      obligation_count: BigInt(rest.total),
      data: raw`${JSON.stringify(figures)}::jsonb`,
    })
    .onConflict((c) =>
      c.column("organization_id").doUpdateSet((eb) => ({
        computed_for: eb.ref("excluded.computed_for"),
        computed_at: eb.ref("excluded.computed_at"),
        obligation_count: eb.ref("excluded.obligation_count"),
        data: eb.ref("excluded.data"),
      })),
    )
    .execute();
  return { figures, computedAt: started.toISOString() };
}
