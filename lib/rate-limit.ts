import { db } from "@/lib/db";

// Fixed-window counters in PostgreSQL, so every instance sees the same counts.
export type RateLimitState = { limited: boolean; count: number; retryAfterSeconds: number };

export async function hitRateLimit(key: string, windowSeconds: number, limit: number, opts: { peek?: boolean } = {}): Promise<RateLimitState> {
  const nowMs = Date.now();
  const windowStart = new Date(Math.floor(nowMs / (windowSeconds * 1000)) * windowSeconds * 1000);
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowSeconds * 1000 - nowMs) / 1000));
  if (opts.peek) {
    const row = await db().rateLimitBucket.findUnique({ where: { key_windowStart: { key, windowStart } } });
    const count = row?.count ?? 0;
    return { limited: count >= limit, count, retryAfterSeconds };
  }
  const rows = await db().$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limit_buckets (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_buckets.count + 1
    RETURNING count`;
  const count = Number(rows[0]?.count ?? 1);
  return { limited: count > limit, count, retryAfterSeconds };
}

export async function pruneRateLimits(olderThan: Date): Promise<number> {
  return (await db().rateLimitBucket.deleteMany({ where: { windowStart: { lt: olderThan } } })).count;
}
