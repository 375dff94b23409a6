import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { pruneExpired } from "@/lib/maintenance/prune";

// Idempotency records are kept at least 24 h (48 h by default) and then removed.
describe("housekeeping", () => {
  it("prunes idempotency records past retention and old rate-limit windows, keeping recent ones", async () => {
    const organizationId = randomUUID();
    const scope = `org:${organizationId}`;
    const old = new Date(Date.now() - 72 * 3600_000);
    const recent = new Date(Date.now() - 23 * 3600_000);
    const row = (key: string, createdAt: Date) => ({
      organizationId,
      scope,
      key,
      method: "POST",
      path: "/x",
      fingerprint: "f",
      state: "completed",
      responseStatus: 201,
      responseBody: "{}",
      lockedUntil: createdAt,
      createdAt,
    });
    await db().idempotencyRecord.createMany({ data: [row("old-key-1", old), row("recent-key", recent)] });
    const bucket = `test:${randomUUID()}`;
    await db().rateLimitBucket.createMany({
      data: [
        { key: bucket, windowStart: old, count: 3 },
        { key: bucket, windowStart: new Date(), count: 1 },
      ],
    });

    const counts = await pruneExpired();
    expect(counts.idempotency).toBeGreaterThanOrEqual(1);
    const left = await db().idempotencyRecord.findMany({ where: { scope }, select: { key: true } });
    expect(left.map((r) => r.key)).toEqual(["recent-key"]);
    expect(await db().rateLimitBucket.count({ where: { key: bucket } })).toBe(1);
  });
});
