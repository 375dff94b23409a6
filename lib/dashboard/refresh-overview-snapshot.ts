import { transaction } from "@/lib/db";
import { env } from "@/lib/env";
import { todayUtc } from "@/lib/schemas/common";
import { overviewLockKey, storeOverviewSnapshot } from "@/lib/dashboard/overview-snapshot";

export type RefreshOverviewOptions = { today?: string; liveMax?: number; maxAgeSeconds?: number };
export type RefreshOverviewResult = {
  // the organization whose snapshot was recomputed or dropped; null when none was stale (or
  // every stale one was being computed by someone else)
  organizationId: string | null;
  action: "refreshed" | "dropped" | "none";
  duration_ms: number;
};

// How many stale snapshots one call looks at before giving up: the others are locked by
// instances computing them.
const CANDIDATES = 8;
// Computing the overview of 1M obligations takes ~20 s on an idle machine (docs/benchmarks.md).
const TIMEOUT_MS = 300_000;

// One round of the overview refresh (the scheduler's worker runs it after each sweep):
// recomputes ONE snapshot older than OVERVIEW_SNAPSHOT_MAX_AGE_SECONDS or computed for
// another day, the oldest first, in its own transaction. Any number of instances run it at
// once: each takes the organization's advisory lock with pg_try_advisory_xact_lock and
// passes over an organization someone else is computing, and re-checks the row once it holds
// the lock (another instance may have refreshed it in between). Only organizations that
// have a snapshot are refreshed (the first overview of an organization above the limit
// computes it); one that is no longer above OVERVIEW_LIVE_MAX (the limit was raised) loses
// its snapshot instead.
export async function refreshOverviewSnapshot(opts: RefreshOverviewOptions = {}): Promise<RefreshOverviewResult> {
  const started = Date.now();
  const today = opts.today ?? todayUtc();
  const liveMax = opts.liveMax ?? env().OVERVIEW_LIVE_MAX;
  const maxAge = opts.maxAgeSeconds ?? env().OVERVIEW_SNAPSHOT_MAX_AGE_SECONDS;
  const done = (organizationId: string | null, action: RefreshOverviewResult["action"]): RefreshOverviewResult => ({
    organizationId,
    action,
    duration_ms: Date.now() - started,
  });
  return transaction(async (tx) => {
    const stale = await tx.$queryRaw<{ organization_id: string }[]>`
      SELECT organization_id::text AS organization_id FROM overview_snapshots
      WHERE computed_for <> ${today}::date OR computed_at < now() - ${maxAge}::int * interval '1 second'
      ORDER BY computed_at
      LIMIT ${CANDIDATES}`;
    for (const { organization_id: organizationId } of stale) {
      const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`
        SELECT pg_try_advisory_xact_lock(hashtextextended(${overviewLockKey(organizationId)}, 0)) AS locked`;
      if (!locked) continue;
      const [still] = await tx.$queryRaw<{ n: number }[]>`
        SELECT (SELECT count(*) FROM (SELECT 1 FROM obligations WHERE organization_id = ${organizationId}::uuid LIMIT ${liveMax + 1}) c)::int AS n
        FROM overview_snapshots
        WHERE organization_id = ${organizationId}::uuid
          AND (computed_for <> ${today}::date OR computed_at < now() - ${maxAge}::int * interval '1 second')`;
      if (!still) continue; // refreshed by another instance since the pick
      if (still.n <= liveMax) {
        await tx.$executeRaw`DELETE FROM overview_snapshots WHERE organization_id = ${organizationId}::uuid`;
        return done(organizationId, "dropped");
      }
      await storeOverviewSnapshot(tx, { organizationId, today });
      return done(organizationId, "refreshed");
    }
    return done(null, "none");
  }, TIMEOUT_MS);
}
