import { db, type Tx } from "@/lib/db/client";

// Fixed-window counters in PostgreSQL, so every instance sees the same counts.
export type RateLimitState = { limited: boolean; count: number; retryAfterSeconds: number };

function windowOf(windowSeconds: number): { windowStart: Date; retryAfterSeconds: number } {
  const nowMs = Date.now();
  const windowStart = new Date(Math.floor(nowMs / (windowSeconds * 1000)) * windowSeconds * 1000);
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowSeconds * 1000 - nowMs) / 1000));
  return { windowStart, retryAfterSeconds };
}

export async function hitRateLimit(key: string, windowSeconds: number, limit: number): Promise<RateLimitState> {
  const { windowStart, retryAfterSeconds } = windowOf(windowSeconds);
  const rows = await db().$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limit_buckets (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_buckets.count + 1
    RETURNING count`;
  const count = Number(rows[0]?.count ?? 1);
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
  const rows = await db().$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limit_buckets (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_buckets.count + 1
      WHERE rate_limit_buckets.count < ${limit}::int
    RETURNING count`;
  if (rows.length === 0) return { granted: false, retryAfterSeconds };
  return {
    granted: true,
    release: async (q: Tx = db()) => {
      await q.$executeRaw`
        UPDATE rate_limit_buckets SET count = count - 1 WHERE key = ${key} AND window_start = ${windowStart} AND count > 0`;
    },
  };
}

export async function pruneRateLimits(olderThan: Date): Promise<number> {
  return (await db().rateLimitBucket.deleteMany({ where: { windowStart: { lt: olderThan } } })).count;
}
