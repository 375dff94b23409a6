import { db, type Tx } from "@/lib/db/client";
import { statement } from "@/lib/db/query";

// Fixed-window counters in PostgreSQL, so every instance sees the same counts.
export type RateLimitState = { limited: boolean; count: number; retryAfterSeconds: number };

function windowOf(windowSeconds: number): { windowStart: Date; retryAfterSeconds: number } {
  const nowMs = Date.now();
  const windowStart = new Date(Math.floor(nowMs / (windowSeconds * 1000)) * windowSeconds * 1000);
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowSeconds * 1000 - nowMs) / 1000));
  return { windowStart, retryAfterSeconds };
}

type Bucket = { key: string; windowStart: Date };

// One more hit of the window's bucket (created at 1), and its count.
const hit = statement((q, p: Bucket) =>
  q
    .insertInto("rate_limit_buckets")
    .values({ key: p.key, window_start: p.windowStart, count: 1 })
    .onConflict((oc) => oc.columns(["key", "window_start"]).doUpdateSet((eb) => ({ count: eb("rate_limit_buckets.count", "+", 1) })))
    .returning("count"),
);

// The same, only while the count is below `limit` (no row otherwise).
const reserve = statement((q, p: Bucket & { limit: number }) =>
  q
    .insertInto("rate_limit_buckets")
    .values({ key: p.key, window_start: p.windowStart, count: 1 })
    .onConflict((oc) =>
      oc
        .columns(["key", "window_start"])
        .doUpdateSet((eb) => ({ count: eb("rate_limit_buckets.count", "+", 1) }))
        .where("rate_limit_buckets.count", "<", p.limit),
    )
    .returning("count"),
);

const release = statement((q, p: Bucket) =>
  q
    .updateTable("rate_limit_buckets")
    .set((eb) => ({ count: eb("count", "-", 1) }))
    .where("key", "=", p.key)
    .where("window_start", "=", p.windowStart)
    .where("count", ">", 0),
);

export async function hitRateLimit(key: string, windowSeconds: number, limit: number): Promise<RateLimitState> {
  const { windowStart, retryAfterSeconds } = windowOf(windowSeconds);
  const rows = await hit.rows(db(), { key, windowStart });
  const count = rows[0]?.count ?? 1;
  return { limited: count > limit, count, retryAfterSeconds };
}

// An attempt counted before the work it guards runs (a password check), so that concurrent
// attempts cannot all pass a count read before any of them is recorded. `release` takes it
// back when it turns out not to count (the password was right).
export type CountedAttempt = { release: (q?: Tx) => Promise<void> };

// One of the `limit` attempts of the current window for `key`: counted and checked in ONE
// statement (the row is locked by the upsert, so of any number of concurrent callers at most
// `limit` get one), or refused, and then not counted. Released in the window it was taken
// in, never below 0.
export async function reserveAttempt(
  key: string,
  windowSeconds: number,
  limit: number,
): Promise<({ granted: true } & CountedAttempt) | { granted: false; retryAfterSeconds: number }> {
  const { windowStart, retryAfterSeconds } = windowOf(windowSeconds);
  const rows = await reserve.rows(db(), { key, windowStart, limit });
  if (rows.length === 0) return { granted: false, retryAfterSeconds };
  return {
    granted: true,
    release: async (q: Tx = db()) => {
      await release.count(q, { key, windowStart });
    },
  };
}

export async function pruneRateLimits(olderThan: Date): Promise<number> {
  return (await db().rateLimitBucket.deleteMany({ where: { windowStart: { lt: olderThan } } })).count;
}
