import { sql as raw } from "kysely";
import { db, transaction } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { env } from "@/lib/env";
import { todayUtc } from "@/lib/schemas/common";
import { obligationsUpTo, overviewLockKey, storeOverviewSnapshot } from "@/lib/overview/store-overview-snapshot";

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
// its snapshot instead. The stale ones are found by a read across organizations on the plain
// handle; each is then tried in a transaction of its own whose statements all name it (one
// shard on Citus, docs/scaling.md).
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
  const isStale = raw<boolean>`(computed_for <> ${today}::date OR computed_at < now() - ${maxAge}::int * interval '1 second')`;
  const stale = await query(db()).selectFrom("overview_snapshots").select("organization_id").where(isStale).orderBy("computed_at").limit(CANDIDATES).execute();
  for (const { organization_id: organizationId } of stale) {
    const action = await transaction(async (tx): Promise<RefreshOverviewResult["action"]> => {
      const k = query(tx);
      const {
        rows: [{ locked }],
      } = await raw<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(hashtextextended(${overviewLockKey(organizationId)}, 0)) AS locked`.execute(k);
      if (!locked) return "none";
      const still = await k
        .selectFrom("overview_snapshots")
        .select(obligationsUpTo(k, organizationId, liveMax + 1).as("n"))
        .where("organization_id", "=", organizationId)
        .where(isStale)
        .executeTakeFirst();
      if (!still) return "none"; // refreshed by another instance since the pick
      if ((still.n ?? 0) <= liveMax) {
        await k.deleteFrom("overview_snapshots").where("organization_id", "=", organizationId).execute();
        return "dropped";
      }
      await storeOverviewSnapshot(tx, { organizationId, today });
      return "refreshed";
    }, TIMEOUT_MS);
    if (action !== "none") return done(organizationId, action);
  }
  return done(null, "none");
}
