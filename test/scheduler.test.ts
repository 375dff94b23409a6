import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Api } from "./support/api";
import { legacyBody, dayOffset, registerObligation } from "./support/obligations";
import { createTestDatabase, startServer, TEST_CRON_SECRET, type TestServer } from "./support/server";
import { SECRET, sleep, startReceiver, verify, waitUntil, type Receiver } from "./support/webhooks";
import { createOrganization } from "@/lib/organizations/create-organization";

// Scheduled events through the real servers, with real time arithmetic: dates relative to
// today (UTC), and obligations "registered days ago" by moving their created_at back in the
// database (the only thing a test cannot wait for). This file runs its own servers on their
// own database (the sweep covers every organization, so no other test file's obligations
// are touched): A in TZ=Pacific/Kiritimati (UTC+14) and B in TZ=America/Adak (UTC-10), both
// with SCHEDULER_INTERVAL_MS=0 (only the cron route sweeps) and PAYMENT_REQUEST_TTL_DAYS=5
// (every hosted link expires within 7 days: payment_request.expiring at the first sweep).

const SCHEDULED = ["obligation.term_payable", "obligation.due", "obligation.overdue", "payment_request.expiring"];
const ENV = { SCHEDULER_INTERVAL_MS: "0", PAYMENT_REQUEST_TTL_DAYS: "5", SCHEDULER_BATCH_SIZE: "10" };

let A: TestServer;
let B: TestServer;
let sql: pg.Client;

beforeAll(async () => {
  const admin = process.env.TEST_DATABASE_URL;
  const databaseUrl = admin ? await createTestDatabase(admin) : undefined;
  A = await startServer({ databaseUrl, label: "sched-a", env: { ...ENV, TZ: "Pacific/Kiritimati" } });
  B = await startServer({ databaseUrl: A.databaseUrl, label: "sched-b", env: { ...ENV, TZ: "America/Adak" } });
  // Fixtures (organizations) are created in this file's database.
  process.env.DATABASE_URL = A.databaseUrl;
  sql = new pg.Client({ connectionString: A.databaseUrl });
  await sql.connect();
}, 300_000);

afterAll(async () => {
  await sql?.end();
  await B?.stop();
  await A?.stop();
});

type Org = { organizationId: string; api: Api; apiB: Api };

async function org(name: string): Promise<Org> {
  const r = await createOrganization({
    name,
    ownerEmail: `owner-${crypto.randomUUID()}@example.test`,
    ownerPassword: "correct-horse-battery-staple",
    ownerName: "Olive",
  });
  return { organizationId: r.organization_id, api: new Api(A.baseUrl, r.api_key), apiB: new Api(B.baseUrl, r.api_key) };
}

async function cron(s: TestServer, secret = TEST_CRON_SECRET) {
  const res = await fetch(`${s.baseUrl}/api/v1/cron/scheduler`, { headers: { authorization: `Bearer ${secret}` } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

// Sweeps until the sweeper says nothing more is due; returns the summed counts.
async function sweepAll(s: TestServer) {
  const total: Record<string, number> = {};
  for (let i = 0; i < 200; i++) {
    const r = await cron(s);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    for (const [k, v] of Object.entries(r.body.emitted as Record<string, number>)) total[k] = (total[k] ?? 0) + v;
    if (!r.body.more) return total;
  }
  throw new Error("sweepAll: still more after 200 sweeps");
}

// Pretends the obligation was registered `days` ago (and is due for a sweep today).
// The new time is computed here: Citus refuses timestamptz arithmetic (STABLE) on a column in an UPDATE.
async function registeredDaysAgo(obligationId: string, days: number) {
  const { rows } = await sql.query<{ created_at: Date }>(`SELECT created_at FROM obligations WHERE id = $1`, [obligationId]);
  const at = new Date(rows[0].created_at.getTime() - days * 86_400_000);
  await sql.query(`UPDATE obligations SET created_at = $2, next_scheduled_on = (now() AT TIME ZONE 'UTC')::date WHERE id = $1`, [
    obligationId,
    at.toISOString(),
  ]);
}

type Ev = { id: string; type: string; obligation_id: string; actor_type: string; data: any };

async function scheduledEvents(organizationId: string): Promise<Ev[]> {
  const r = await sql.query<Ev>(
    `SELECT id::text, type, obligation_id::text, actor_type, data FROM events
     WHERE organization_id = $1 AND type = ANY($2::text[]) ORDER BY created_at, id`,
    [organizationId, SCHEDULED],
  );
  return r.rows;
}

// One comparable line per scheduled event.
const line = (e: Ev) =>
  e.type === "obligation.overdue"
    ? `overdue ${e.data.days_overdue}`
    : e.type === "payment_request.expiring"
      ? "expiring"
      : `${e.type.slice("obligation.".length)} term ${e.data.term.sequence}`;

// Events recorded in one sweep transaction may share a millisecond: compared as sorted lists.
const linesOf = async (organizationId: string, obligationId: string) =>
  (await scheduledEvents(organizationId))
    .filter((e) => e.obligation_id === obligationId)
    .map(line)
    .sort();
const sorted = (a: string[]) => [...a].sort();

async function nextScheduledOn(obligationId: string): Promise<string | null> {
  const r = await sql.query<{ d: string | null }>(`SELECT next_scheduled_on::text AS d FROM obligations WHERE id = $1`, [obligationId]);
  return r.rows[0].d;
}

describe("GET /api/v1/cron/scheduler", () => {
  it("needs Bearer CRON_SECRET (401) and returns the counts of one sweep", async () => {
    expect((await cron(A, "wrong-secret-0123456789abcdef")).status).toBe(401);
    const noAuth = await fetch(`${A.baseUrl}/api/v1/cron/scheduler`);
    expect(noAuth.status).toBe(401);
    expect((await noAuth.json()).error.code).toBe("unauthenticated");
    const r = await cron(A);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["claimed", "duration_ms", "emitted", "more"]);
    expect(Object.keys(r.body.emitted).sort()).toEqual([...SCHEDULED, "promise.broken", "promise.kept"].sort());
  });
});

describe("what becomes due after registration, exactly once", () => {
  let o: Org;
  beforeAll(async () => {
    o = await org("Scheduled Ltd");
  });

  it("a link expiring within 7 days is announced once; the future deadline becomes the next date", async () => {
    const { obligation, payment_request } = await registerObligation(o.api, legacyBody({ deadline: dayOffset(10) }));
    await sweepAll(A);
    const evs = (await scheduledEvents(o.organizationId)).filter((e) => e.obligation_id === obligation.id);
    expect(evs.map(line)).toEqual(["expiring"]);
    expect(evs[0].type).toBe("payment_request.expiring");
    expect(evs[0].data.payment_request).toEqual({
      id: payment_request.id,
      obligation_id: obligation.id,
      expires_at: payment_request.expires_at,
      revoked: false,
    });
    expect(evs[0].data.obligation.id).toBe(obligation.id);
    expect(evs[0].actor_type).toBe("system");
    expect(await nextScheduledOn(obligation.id)).toBe(dayOffset(10));
    // Due again only when the deadline comes: further sweeps emit nothing for it.
    await sweepAll(B);
    expect(await linesOf(o.organizationId, obligation.id)).toEqual(sorted(["expiring"]));
  });

  it("registered with its deadline already past: every threshold reached at the next sweep, in order (docs/obligations.md, Lifecycle)", async () => {
    // 31 days late: overdue 1, 7 and 30 at once; due was told by obligation.registered.
    const late = await registerObligation(o.api, legacyBody({ deadline: dayOffset(-31), amount_minor: "3100" }));
    expect(late.obligation.due_minor).toBe("3100");
    // 10 days late: 1 and 7 now, 30 when it comes.
    const ten = await registerObligation(o.api, legacyBody({ deadline: dayOffset(-10), amount_minor: "1000" }));
    await sweepAll(A);
    const evs = (await scheduledEvents(o.organizationId)).filter((e) => e.obligation_id === late.obligation.id);
    const overdue = evs.filter((e) => e.type === "obligation.overdue");
    // In threshold order by created_at (scheduledEvents orders by created_at, id).
    expect(overdue.map((e) => e.data.days_overdue)).toEqual([1, 7, 30]);
    // Date order: the link (5 days to live) is "expiring" since 2 days ago, overdue 30 since yesterday.
    expect(evs.map(line)).toEqual(["overdue 1", "overdue 7", "expiring", "overdue 30"]);
    for (const e of overdue) {
      expect(e.actor_type).toBe("system");
      expect(Object.keys(e.data).sort()).toEqual(["days_overdue", "detail", "obligation"]);
      expect(e.data.detail).toEqual({ days_overdue: e.data.days_overdue });
      expect(e.data.obligation).toMatchObject({ id: late.obligation.id, deadline: dayOffset(-31), amount_minor: "3100", version: 1 });
    }
    expect(await nextScheduledOn(late.obligation.id)).toBeNull();
    // The audit trail shows them in the same order.
    const d = await o.api.get(`/obligations/${late.obligation.id}`);
    expect(d.status).toBe(200);
    expect(d.body.audit_trail.map((e: any) => (e.event_type === "obligation.overdue" ? `overdue ${e.detail.days_overdue}` : e.event_type))).toEqual([
      "obligation.registered",
      "overdue 1",
      "overdue 7",
      "payment_request.expiring",
      "overdue 30",
    ]);
    expect((await scheduledEvents(o.organizationId)).filter((e) => e.obligation_id === ten.obligation.id).map(line)).toEqual([
      "overdue 1",
      "overdue 7",
      "expiring",
    ]);
    expect(await nextScheduledOn(ten.obligation.id)).toBe(dayOffset(20));
    // Swept again: nothing is repeated.
    await sql.query(`UPDATE obligations SET next_scheduled_on = (now() AT TIME ZONE 'UTC')::date WHERE id = ANY($1::uuid[])`, [
      [late.obligation.id, ten.obligation.id],
    ]);
    await sweepAll(B);
    expect(await linesOf(o.organizationId, late.obligation.id)).toEqual(sorted(["overdue 1", "overdue 7", "overdue 30", "expiring"]));
    expect(await linesOf(o.organizationId, ten.obligation.id)).toEqual(sorted(["overdue 1", "overdue 7", "expiring"]));
  });

  it("caught up after downtime: a deadline that passed since registration emits due and each threshold passed, once, in order", async () => {
    const { obligation } = await registerObligation(o.api, legacyBody({ deadline: dayOffset(-8), amount_minor: "5000" }));
    await registeredDaysAgo(obligation.id, 20);
    await sweepAll(B);
    expect(await linesOf(o.organizationId, obligation.id)).toEqual(sorted(["expiring", "due term 1", "overdue 1", "overdue 7"]));
    const evs = (await scheduledEvents(o.organizationId)).filter((e) => e.obligation_id === obligation.id);
    const due = evs.find((e) => e.type === "obligation.due")!;
    // The implicit term of an obligation without terms: due on the deadline, no id.
    expect(due.data.term).toEqual({
      sequence: 1,
      label: "",
      amount_type: "percentage",
      percentage_basis_points: 10000,
      amount_minor: "5000",
      trigger_type: "immediately",
      due_rule: "specific_date",
      due_date: dayOffset(-8),
      triggered_on: dayOffset(-20),
      payable_on: dayOffset(-8),
    });
    expect(
      evs
        .filter((e) => e.type === "obligation.overdue")
        .map((e) => e.data.days_overdue)
        .sort(),
    ).toEqual([1, 7]);
    expect(await nextScheduledOn(obligation.id)).toBe(dayOffset(22)); // deadline + 30
    // Swept again (a change resets the date to today): nothing is repeated.
    await sql.query(`UPDATE obligations SET next_scheduled_on = (now() AT TIME ZONE 'UTC')::date WHERE id = $1`, [obligation.id]);
    await sweepAll(A);
    expect(await linesOf(o.organizationId, obligation.id)).toEqual(sorted(["expiring", "due term 1", "overdue 1", "overdue 7"]));
  });

  it("payment terms: trigger dates reached since registration emit term_payable and due; later ones wait", async () => {
    const { obligation } = await registerObligation(
      o.api,
      legacyBody({
        amount_minor: "90000",
        deadline: dayOffset(30),
        payment_terms: [
          { sequence: 1, amount_type: "fixed", fixed_amount_minor: "30000", trigger_type: "immediately", due_rule: "immediately" },
          {
            sequence: 2,
            amount_type: "fixed",
            fixed_amount_minor: "30000",
            trigger_type: "specific_date",
            trigger_date: dayOffset(-2),
            due_rule: "days_after_trigger",
            due_days: 1,
          },
          {
            sequence: 3,
            amount_type: "fixed",
            fixed_amount_minor: "30000",
            trigger_type: "specific_date",
            trigger_date: dayOffset(5),
            due_rule: "immediately",
          },
        ],
      }),
    );
    await registeredDaysAgo(obligation.id, 10);
    await sweepAll(A);
    // Term 1 was payable and due at registration (told by obligation.registered).
    expect(await linesOf(o.organizationId, obligation.id)).toEqual(sorted(["expiring", "term_payable term 2", "due term 2"]));
    const evs = (await scheduledEvents(o.organizationId)).filter((e) => e.obligation_id === obligation.id);
    const payable = evs.find((e) => e.type === "obligation.term_payable")!;
    expect(payable.data.term).toMatchObject({ sequence: 2, amount_minor: "30000", triggered_on: dayOffset(-2), payable_on: dayOffset(-1) });
    expect(payable.data.term.id).toEqual(expect.any(String));
    expect(payable.data.obligation.payable_minor).toBe("60000");
    expect(await nextScheduledOn(obligation.id)).toBe(dayOffset(5));
  });

  it("a term whose condition is satisfied later becomes payable (and due) at the next sweep", async () => {
    const { obligation, invoice } = await registerObligation(
      o.api,
      legacyBody({
        amount_minor: "100000",
        conditions: [{ key: "delivery", label: "Goods delivered" }],
        payment_terms: [
          { sequence: 1, amount_type: "percentage", percentage_basis_points: 4000, trigger_type: "immediately", due_rule: "immediately" },
          {
            sequence: 2,
            amount_type: "percentage",
            percentage_basis_points: 6000,
            trigger_type: "condition_satisfied",
            condition_key: "delivery",
            due_rule: "days_after_trigger",
            due_days: 14,
          },
        ],
      }),
    );
    await sweepAll(A);
    expect(await linesOf(o.organizationId, obligation.id)).toEqual(sorted(["expiring"]));
    const r = await o.api.post(`/obligations/${obligation.id}/conditions/${invoice.conditions[0].id}/satisfy`, { expected_version: obligation.version });
    expect(r.status, r.text).toBe(200);
    expect(await nextScheduledOn(obligation.id)).toBe(dayOffset(0)); // the change reset it
    await sweepAll(B);
    expect(await linesOf(o.organizationId, obligation.id)).toEqual(sorted(["expiring", "term_payable term 2"]));
    const ev = (await scheduledEvents(o.organizationId)).find((e) => e.obligation_id === obligation.id && e.type === "obligation.term_payable")!;
    expect(ev.data.term).toMatchObject({ sequence: 2, condition_key: "delivery", triggered_on: dayOffset(0), payable_on: dayOffset(14) });
    expect(ev.data.obligation.version).toBe(2);
    expect(await nextScheduledOn(obligation.id)).toBe(dayOffset(14));
  });

  it("a reconciled obligation emits nothing more", async () => {
    const { obligation } = await registerObligation(o.api, legacyBody({ deadline: dayOffset(-3), amount_minor: "700" }));
    const pay = await o.api.post("/payments", { amount_minor: "700", currency: "EUR", received_on: dayOffset(0) });
    expect(pay.status, pay.text).toBe(201);
    const alloc = await o.api.post(`/payments/${pay.body.id}/allocations`, {
      obligation_id: obligation.id,
      amount_minor: "700",
      expected_version: obligation.version,
    });
    expect(alloc.status, alloc.text).toBe(200);
    await registeredDaysAgo(obligation.id, 10);
    await sweepAll(A);
    expect(await linesOf(o.organizationId, obligation.id)).toEqual(sorted([]));
    expect(await nextScheduledOn(obligation.id)).toBeNull();
  });

  it("the audit trail shows the scheduled events, by the system", async () => {
    const { obligation } = await registerObligation(o.api, legacyBody({ deadline: dayOffset(-2) }));
    await registeredDaysAgo(obligation.id, 5);
    await sweepAll(A);
    const d = await o.api.get(`/obligations/${obligation.id}`);
    expect(d.status).toBe(200);
    const trail = d.body.audit_trail.map((e: any) => `${e.event_type} by ${e.actor.type}`);
    expect(trail[0]).toBe("obligation.registered by api_key");
    expect(sorted(trail.slice(1))).toEqual(["obligation.due by system", "obligation.overdue by system", "payment_request.expiring by system"]);
    expect(d.body.audit_trail.find((e: any) => e.event_type === "obligation.overdue").detail).toEqual({ days_overdue: 1 });
  });
});

describe("time zones: the service's dates are UTC calendar dates", () => {
  it("a server at UTC+14 and one at UTC-10 emit the same events and next dates", async () => {
    const setup = async (o: Org) => {
      const ids: string[] = [];
      for (const [deadline, ago] of [
        [-1, 3],
        [-7, 9],
        [0, 4],
        [1, 2],
        [-30, 31],
      ] as const) {
        const { obligation } = await registerObligation(o.api, legacyBody({ deadline: dayOffset(deadline), amount_minor: "1000" }));
        await registeredDaysAgo(obligation.id, ago);
        ids.push(obligation.id);
      }
      return ids;
    };
    const x = await org("Kiritimati Ltd");
    const xs = await setup(x);
    await sweepAll(A);
    const y = await org("Adak Ltd");
    const ys = await setup(y);
    await sweepAll(B);
    const xLines = await Promise.all(xs.map((id) => linesOf(x.organizationId, id)));
    const yLines = await Promise.all(ys.map((id) => linesOf(y.organizationId, id)));
    expect(xLines).toEqual(
      [
        ["expiring", "due term 1", "overdue 1"],
        ["expiring", "due term 1", "overdue 1", "overdue 7"],
        ["expiring", "due term 1"],
        ["expiring"],
        ["expiring", "due term 1", "overdue 1", "overdue 7", "overdue 30"],
      ].map(sorted),
    );
    expect(yLines).toEqual(xLines);
    const xNext = await Promise.all(xs.map(nextScheduledOn));
    expect(xNext).toEqual([dayOffset(6), dayOffset(23), dayOffset(1), dayOffset(1), null]);
    expect(await Promise.all(ys.map(nextScheduledOn))).toEqual(xNext);
  });
});

describe("several sweepers, and a sweeper killed mid-sweep", () => {
  // Obligations inserted in bulk, as if registered 40 days ago with the deadline 10 days ago
  // (no payment request): each owes due + overdue 1 + overdue 7.
  async function bulk(organizationId: string, n: number, prefix: string) {
    await sql.query(
      `INSERT INTO obligations (id, organization_id, reference, payment_reference, obligation_type, organization_role, external_namespace, external_id,
                                debtor_name, amount_minor, currency, deadline, invoice_number, status, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, $2::text || g, fos_rf_reference($2::text || g), 'invoice', 'creditor', 'bulk', $2::text || g,
              'Debtor ' || g, 1000 + g, 'EUR', (now() AT TIME ZONE 'UTC')::date - 10, 'INV-' || g, 'OBLIGATION_CAPTURED', now() - interval '40 days', now()
       FROM generate_series(1, $3::int) g`,
      [organizationId, prefix, n],
    );
  }

  async function assertExactlyOnce(organizationId: string, n: number) {
    const dup = await sql.query(
      `SELECT obligation_id, type, coalesce(data->>'days_overdue', '') AS k, count(*) FROM events
       WHERE organization_id = $1 AND type = ANY($2::text[]) GROUP BY 1, 2, 3 HAVING count(*) > 1`,
      [organizationId, SCHEDULED],
    );
    expect(dup.rows).toEqual([]);
    const per = await sql.query<{ lines: string }>(
      `SELECT string_agg(type || coalesce(':' || (data->>'days_overdue'), ''), ',' ORDER BY type, data->>'days_overdue') AS lines
       FROM obligations o LEFT JOIN events e ON e.organization_id = o.organization_id AND e.obligation_id = o.id AND e.type = ANY($2::text[])
       WHERE o.organization_id = $1 GROUP BY o.id`,
      [organizationId, SCHEDULED],
    );
    expect(per.rows.length).toBe(n);
    const shapes = new Set(per.rows.map((r) => r.lines));
    expect([...shapes]).toEqual(["obligation.due,obligation.overdue:1,obligation.overdue:7"]);
    // Every mark belongs to an event of its obligation, and every scheduled event has its mark.
    const marks = await sql.query<{ n: number; joined: number }>(
      `SELECT count(*)::int AS n, count(e.id)::int AS joined FROM scheduled_event_marks m
       LEFT JOIN events e ON e.organization_id = m.organization_id AND e.id = m.event_id AND e.obligation_id = m.obligation_id
       WHERE m.organization_id = $1`,
      [organizationId],
    );
    expect(marks.rows[0]).toEqual({ n: 3 * n, joined: 3 * n });
  }

  it("two servers sweeping at once (overlapping cron calls): every event exactly once", async () => {
    const o = await org("Concurrent Sweep Ltd");
    await bulk(o.organizationId, 120, "CONC");
    const results = await Promise.all([A, B, A, B, A, B].map((s) => cron(s)));
    for (const r of results) expect(r.status).toBe(200);
    expect(results.filter((r) => r.body.claimed > 0).length).toBeGreaterThanOrEqual(2);
    await sweepAll(A);
    await assertExactlyOnce(o.organizationId, 120);
  });

  it("kill -9 during a large sweep, then sweep again: no duplicate and no gap", async () => {
    const o = await org("Crash Sweep Ltd");
    const n = 1500;
    await bulk(o.organizationId, n, "CRASH");
    const marks = async () =>
      (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM scheduled_event_marks WHERE organization_id = $1`, [o.organizationId])).rows[0].n;
    // Sweeps on its own (in-process interval), in batches of 20; has no CRON_SECRET.
    const K = await startServer({
      databaseUrl: A.databaseUrl,
      label: "sched-kill",
      env: { SCHEDULER_INTERVAL_MS: "100", SCHEDULER_BATCH_SIZE: "20", CRON_SECRET: undefined as unknown as string },
    });
    try {
      expect((await cron(K)).status).toBe(404); // the cron route does not exist without CRON_SECRET
      await waitUntil(async () => (await marks()) >= 60, 60_000, 20);
      await K.stop("SIGKILL");
    } finally {
      await K.stop("SIGKILL");
    }
    const atKill = await marks();
    expect(atKill).toBeLessThan(3 * n); // killed mid-sweep
    expect(atKill % 3).toBe(0); // whole obligations only: a batch commits all of its events or none
    await sleep(200);
    await sweepAll(A);
    await assertExactlyOnce(o.organizationId, n);
  }, 180_000);
});

describe("webhooks", () => {
  let rcv: Receiver;
  afterAll(async () => rcv?.close());

  it("each scheduled event is delivered once, signed, with the documented payload", async () => {
    const o = await org("Hooked Ltd");
    rcv = await startReceiver();
    const ep = await o.api.post("/webhook-endpoints", { url: rcv.url, secret: SECRET });
    expect(ep.status, ep.text).toBe(201);
    const { obligation } = await registerObligation(o.api, legacyBody({ deadline: dayOffset(-1), amount_minor: "4200" }));
    await registeredDaysAgo(obligation.id, 3);
    await sweepAll(A);
    await sweepAll(B);
    const flush = async () => {
      const r = await fetch(`${A.baseUrl}/api/v1/cron/webhooks`, { headers: { authorization: `Bearer ${TEST_CRON_SECRET}` } });
      await r.text();
    };
    await waitUntil(
      async () => {
        await flush();
        return rcv.received.filter((r) => JSON.parse(r.body).type !== "obligation.registered").length >= 3;
      },
      30_000,
      200,
    );
    await flush();
    const bodies = rcv.received.map((r) => verify(SECRET, r) as any).filter((b) => SCHEDULED.includes(b.type));
    expect(sorted(bodies.map((b) => b.type))).toEqual(["obligation.due", "obligation.overdue", "payment_request.expiring"]);
    expect(new Set(rcv.received.map((r) => r.headers["webhook-id"])).size).toBe(rcv.received.length);
    const byType = (t: string) => bodies.find((b) => b.type === t);
    const overdue = byType("obligation.overdue");
    expect(Object.keys(overdue).sort()).toEqual(["created_at", "data", "id", "organization_id", "type"]);
    expect(overdue.organization_id).toBe(o.organizationId);
    expect(overdue.data.days_overdue).toBe(1);
    expect(overdue.data.obligation).toMatchObject({ id: obligation.id, amount_minor: "4200", deadline: dayOffset(-1), version: 1 });
    expect(overdue.data.detail).toBeUndefined();
    expect(byType("obligation.due").data.term).toMatchObject({ sequence: 1, payable_on: dayOffset(-1) });
    expect(byType("payment_request.expiring").data.payment_request.revoked).toBe(false);
  });
});
