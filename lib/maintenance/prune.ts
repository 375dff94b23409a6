import { db } from "@/lib/db/client";
import { pruneIdempotency } from "@/lib/idempotency";
import { pruneRateLimits } from "@/lib/rate-limit";

// Housekeeping shared by every instance (any of them may run it; each statement is
// idempotent): idempotency records past retention, old rate-limit windows, sessions that
// ended more than a day ago.
export async function pruneExpired(now = new Date()): Promise<Record<string, number>> {
  const dayAgo = new Date(now.getTime() - 24 * 3600_000);
  const [idempotency, rateLimits, issuerSessions, recipientSessions] = await Promise.all([
    pruneIdempotency(),
    pruneRateLimits(dayAgo),
    db()
      .issuerSession.deleteMany({ where: { OR: [{ expiresAt: { lt: dayAgo } }, { revokedAt: { lt: dayAgo } }] } })
      .then((r) => r.count),
    db()
      .recipientSession.deleteMany({ where: { expiresAt: { lt: dayAgo } } })
      .then((r) => r.count),
  ]);
  return { idempotency, rateLimits, issuerSessions, recipientSessions };
}
