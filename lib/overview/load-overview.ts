import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { env } from "@/lib/env";
import { fromDate, todayUtc } from "@/lib/schemas/common";
import { summarizeObligations, type ObligationSummary } from "@/lib/obligations/summarize-obligations";
import { listMostOverdue } from "@/lib/obligations/list-most-overdue";
import { ageReceivables, type AgingSeries } from "@/lib/overview/age-receivables";
import { expectCash, type CashSeries } from "@/lib/overview/expect-cash";
import { obligationsUpTo, overviewLockKey, storeOverviewSnapshot, type OverviewFigures, type StoredOverview } from "@/lib/overview/store-overview-snapshot";

export type Overview = {
  summary: ObligationSummary;
  aging: AgingSeries[];
  cash: CashSeries[];
  // null: computed for this request; else when the snapshot shown was computed (RFC 3339)
  asOf: string | null;
};

// liveMax: OVERVIEW_LIVE_MAX unless given (tests, benchmarks).
export type LoadOverviewInput = { organizationId: string; today?: string; overdueLimit?: number; liveMax?: number };

// The figures of the dashboard overview (docs/dashboard.md "Overview snapshots").
// An organization with at most OVERVIEW_LIVE_MAX obligations: computed now, by the scans of
// summarizeObligations, ageReceivables and expectCash, whose time grows with the
// organization (~1 s for the summary and aging, ~15 s for the cash chart at 1M). Above it:
// the stored snapshot of today (one row by primary key), else one computed now and stored,
// under the organization's lock (a second request waits for the first and reads its
// result). The most-overdue list is read live either way (an index range, 8 rows).
//
// "Above the limit" is decided in the same statement that reads the snapshot: a count of at
// most limit + 1 index entries of obligations_org_created_idx, so its cost is bounded by the
// limit, not by the organization. The snapshot's own obligation_count is not used for it: it
// may predate a change of OVERVIEW_LIVE_MAX.
//
// `tx` must be a transaction (the lock is transaction-scoped); the page runs this in one.
export async function loadOverview(tx: Tx, input: LoadOverviewInput): Promise<Overview> {
  const { organizationId } = input;
  const today = input.today ?? todayUtc();
  const liveMax = input.liveMax ?? env().OVERVIEW_LIVE_MAX;
  const overdueLimit = input.overdueLimit ?? 8;
  const k = query(tx);
  const probe = await k
    .selectFrom(raw<{ one: number }>`(SELECT 1)`.as("one"))
    .leftJoin("overview_snapshots as s", (j) => j.on("s.organization_id", "=", organizationId))
    .select([obligationsUpTo(k, organizationId, liveMax + 1).as("n"), "s.computed_for", "s.computed_at", raw<OverviewFigures | null>`s.data`.as("data")])
    .executeTakeFirstOrThrow();
  if ((probe.n ?? 0) <= liveMax) {
    const summary = await summarizeObligations(tx, { organizationId, today, overdueLimit });
    const aging = await ageReceivables(tx, { organizationId, today });
    const cash = await expectCash(tx, { organizationId, today });
    return { summary, aging, cash, asOf: null };
  }
  const stored =
    probe.data && probe.computed_at && fromDate(probe.computed_for) === today
      ? { figures: probe.data, computedAt: probe.computed_at.toISOString() }
      : await snapshotOfToday(tx, { organizationId, today });
  const items = await listMostOverdue(tx, { organizationId, today, limit: overdueLimit });
  const { summary, aging, cash } = stored.figures;
  return { summary: { ...summary, overdue: { ...summary.overdue, items } }, aging, cash, asOf: stored.computedAt };
}

// Missing or of another day: wait for whoever computes it now, then read theirs or compute.
async function snapshotOfToday(tx: Tx, input: { organizationId: string; today: string }): Promise<StoredOverview> {
  const k = query(tx);
  await raw`SELECT pg_advisory_xact_lock(hashtextextended(${overviewLockKey(input.organizationId)}, 0))::text AS locked`.execute(k);
  const row = await k
    .selectFrom("overview_snapshots")
    .select(["computed_at", raw<OverviewFigures>`data`.as("data")])
    .where("organization_id", "=", input.organizationId)
    .where("computed_for", "=", raw<Date>`${input.today}::date`)
    .executeTakeFirst();
  if (row) return { figures: row.data, computedAt: row.computed_at.toISOString() };
  return storeOverviewSnapshot(tx, input);
}
