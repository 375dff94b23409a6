import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Api } from "./support/api";
import { dayOffset, legacyBody, registerObligation } from "./support/obligations";
import { createTestDatabase, startServer, TEST_CRON_SECRET, type TestServer } from "./support/server";
import { SECRET, startReceiver } from "./support/webhooks";
import { createOrganization, createUser } from "@/lib/organizations/create-organization";

// Four instances on one database (through the pooler when TEST_POOLER_URL is set: each test
// server then runs with DATABASE_POOLER=transaction; docs/scaling.md). What must hold across
// instances holds because its state is in the database: scheduled events and webhook
// deliveries exactly once with all four sweeping and flushing at once, idempotency replays
// and in-progress answers, sign-in throttling. Its own database (the sweep covers every
// organization), like test/scheduler.test.ts.

const ENV = {
  SCHEDULER_INTERVAL_MS: "0",
  SCHEDULER_BATCH_SIZE: "5", // small batches, so the four sweepers interleave
  PAYMENT_REQUEST_TTL_DAYS: "5", // every link expires within 7 days: one payment_request.expiring each
  LOGIN_MAX_FAILURES: "3",
  LOGIN_WINDOW_SECONDS: "600",
};
const PASSWORD = "correct-horse-battery-staple";

let S: TestServer[] = [];
let direct: pg.Client;

beforeAll(async () => {
  const admin = process.env.TEST_DATABASE_URL;
  const databaseUrl = admin ? await createTestDatabase(admin) : undefined;
  const first = await startServer({ databaseUrl, label: "scale-0", env: ENV });
  const rest = await Promise.all([1, 2, 3].map((i) => startServer({ databaseUrl: first.databaseUrl, label: `scale-${i}`, env: ENV })));
  S = [first, ...rest];
  process.env.DATABASE_URL = first.databaseUrl; // fixtures in this file's database
  direct = new pg.Client({ connectionString: first.databaseUrl });
  await direct.connect();
}, 300_000);

afterAll(async () => {
  await direct?.end();
  await Promise.all(S.slice(1).map((s) => s.stop()));
  await S[0]?.stop();
});

async function org(name: string) {
  const email = `owner-${randomUUID()}@example.test`;
  const r = await createOrganization({ name, ownerEmail: email, ownerPassword: PASSWORD, ownerName: "Olive" });
  return { organizationId: r.organization_id, apiKey: r.api_key, apis: S.map((s) => new Api(s.baseUrl, r.api_key)) };
}

async function cron(s: TestServer, what: "scheduler" | "webhooks") {
  const res = await fetch(`${s.baseUrl}/api/v1/cron/${what}`, { headers: { authorization: `Bearer ${TEST_CRON_SECRET}` } });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text);
}

describe("four instances through one database", () => {
  it("scheduled events: all four sweep at once, every event is emitted exactly once", async () => {
    const o = await org("Four Sweepers Ltd");
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) ids.push((await registerObligation(o.apis[i % 4], legacyBody({ deadline: dayOffset(3 + (i % 3)) }))).obligation.id);
    // Every instance sweeps until it finds nothing more, all at the same time.
    const emitted = await Promise.all(
      S.map(async (s) => {
        let n = 0;
        for (let round = 0; round < 100; round++) {
          const r = await cron(s, "scheduler");
          n += Object.values(r.emitted as Record<string, number>).reduce((a, b) => a + b, 0);
          if (!r.more && r.claimed === 0) break;
        }
        return n;
      }),
    );
    const rows = (
      await direct.query<{ obligation_id: string; type: string; what: string; n: number }>(
        `SELECT obligation_id::text, type, coalesce(data->>'days_overdue', data->'term'->>'sequence', '') AS what, count(*)::int AS n
         FROM events WHERE organization_id = $1 AND type IN ('obligation.due', 'obligation.overdue', 'obligation.term_payable', 'payment_request.expiring')
         GROUP BY 1, 2, 3`,
        [o.organizationId],
      )
    ).rows;
    expect(rows.filter((r) => r.n !== 1)).toEqual([]);
    expect(emitted.reduce((a, b) => a + b, 0)).toBe(rows.length);
    // every obligation's link is announced as expiring, once
    for (const id of ids) expect(rows.some((r) => r.obligation_id === id && r.type === "payment_request.expiring")).toBe(true);
  });

  it("webhook deliveries: four flushers at once, every event reaches the receiver exactly once", async () => {
    const o = await org("Four Flushers Ltd");
    const rcv = await startReceiver();
    try {
      expect((await o.apis[0].post("/webhook-endpoints", { url: rcv.url, secret: SECRET })).status).toBe(201);
      const events: string[] = [];
      for (let i = 0; i < 40; i++) events.push((await registerObligation(o.apis[i % 4])).operation_id);
      for (let round = 0; round < 50 && rcv.received.length < events.length; round++) await Promise.all(S.map((s) => cron(s, "webhooks")));
      await Promise.all(S.map((s) => cron(s, "webhooks"))); // one more round: nothing left to send twice
      const ids = rcv.received.map((r) => String(r.headers["webhook-id"]));
      expect(ids.sort()).toEqual([...events].sort());
      const attempts = await direct.query<{ status: string; attempts: number }>("SELECT status, attempts FROM webhook_deliveries WHERE organization_id = $1", [
        o.organizationId,
      ]);
      expect(attempts.rows.filter((d) => d.status !== "succeeded" || d.attempts !== 1)).toEqual([]);
    } finally {
      await rcv.close();
    }
  });

  it("idempotency: one key sent to all four at once executes once; each replays it; a key in progress is 409 on every instance", async () => {
    const o = await org("Four Keys Ltd");
    const key = `four-${randomUUID()}`;
    const body = legacyBody();
    const burst = await Promise.all(Array.from({ length: 16 }, (_, i) => o.apis[i % 4].post("/obligations", body, { idempotencyKey: key })));
    for (const r of burst) expect([201, 409]).toContain(r.status);
    for (const r of burst.filter((x) => x.status === 409)) expect(r.body.error.code).toBe("idempotency_request_in_progress");
    const created = burst.filter((r) => r.status === 201);
    expect(new Set(created.map((r) => r.body.obligation.id)).size).toBe(1);
    const replays = await Promise.all(o.apis.map((api) => api.post("/obligations", body, { idempotencyKey: key })));
    for (const r of replays) {
      expect(r.status).toBe(201);
      expect(r.headers.get("idempotent-replayed")).toBe("true");
      expect(r.body.obligation.id).toBe(created[0].body.obligation.id);
    }
    const count = await direct.query("SELECT 1 FROM obligations WHERE organization_id = $1 AND external_id = $2", [
      o.organizationId,
      body.external_reference.id,
    ]);
    expect(count.rowCount).toBe(1);

    // A request with this key in progress elsewhere: its transaction holds the key's lock.
    // (PostgreSQL only: the embedded database runs one transaction at a time, so a transaction
    // held open here would hold up every instance.)
    if (!process.env.TEST_DATABASE_URL) return;
    const held = `held-${randomUUID()}`;
    const other = new pg.Client({ connectionString: S[0].databaseUrl });
    await other.connect();
    try {
      await other.query("BEGIN");
      // The claim's own lock, taken by a statement that reads the key's record as the claim
      // does (lib/idempotency): on a Citus cluster it then runs, and locks, on the worker that
      // holds the organization's shard, where the claims take it. (r.key is read so that
      // PostgreSQL keeps the join: without it the statement names no table and runs on the coordinator.)
      await other.query(
        `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))::text AS locked, r.key FROM (SELECT 1) one
         LEFT JOIN idempotency_records r ON r.organization_id = $2 AND r.scope = $3 AND r.key = $4`,
        [`idem\norg:${o.organizationId}\n${held}`, o.organizationId, `org:${o.organizationId}`, held],
      );
      const busy = await Promise.all(o.apis.map((api) => api.post("/obligations", legacyBody(), { idempotencyKey: held })));
      for (const r of busy) {
        expect(r.status).toBe(409);
        expect(r.body.error.code).toBe("idempotency_request_in_progress");
      }
      await other.query("ROLLBACK");
      expect((await o.apis[3].post("/obligations", legacyBody(), { idempotencyKey: held })).status).toBe(201);
    } finally {
      await other.end();
    }
  });

  it("sign-in throttling is shared: failures counted on three instances refuse the fourth", async () => {
    const o = await org("Four Doors Ltd");
    const email = `member-${randomUUID()}@example.test`;
    await createUser({ organizationId: o.organizationId, email, password: PASSWORD, role: "member" });
    const signIn = (i: number, password: string) => new Api(S[i].baseUrl).post("/session", { email, password }, { idempotencyKey: null });
    for (let i = 0; i < 3; i++) expect((await signIn(i, "not-the-password-at-all")).status).toBe(401);
    const refused = await signIn(3, "not-the-password-at-all");
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect((await signIn(0, PASSWORD)).status).toBe(429);
  });
});
