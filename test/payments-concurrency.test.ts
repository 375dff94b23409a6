import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Api, baseUrl, type ApiResponse } from "./support/api";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { startServer, type TestServer } from "./support/server";
import { allocateWithRetry, newObligation, recordPayment } from "./support/payments";

// The allocation invariants under concurrency, against the real server(s):
//  - a payment's allocations never exceed it; an obligation's allocated amount never
//    exceeds its amount;
//  - the sum of the allocation rows equals both sides' allocated_minor;
//  - allocated amounts only change through allocations (each bumps the version by 1);
//  - no allocation is refused that would have fitted.
// Each scenario runs once against one instance and once with requests spread over two
// instances (a second server on the same database). The final check reads the database
// directly with `pg`, and the API views must agree with it.

type Row = Record<string, string>;

let org: OrgFixture;
let second: TestServer;
let client: pg.Client;
let primaryApi: Api;
let secondApi: Api;

beforeAll(async () => {
  org = await newOrg("Concurrent Payments Ltd");
  second = await startServer({ databaseUrl: inject("databaseUrl"), env: { WEBHOOK_WORKER: "off" }, label: "second" });
  primaryApi = new Api(baseUrl(), org.apiKey);
  secondApi = new Api(second.baseUrl, org.apiKey);
  client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
}, 240_000);

afterAll(async () => {
  await client?.end();
  await second?.stop();
});

const roundRobin = (apis: Api[]) => {
  let i = 0;
  return () => apis[i++ % apis.length];
};

async function paymentRows(ids: string[]): Promise<Map<string, Row>> {
  const r = await client.query(
    `SELECT p.id, p.amount_minor, p.allocated_minor, COALESCE(SUM(a.amount_minor), 0)::text AS sum_allocations, COUNT(a.id)::text AS n
       FROM payments p LEFT JOIN payment_allocations a ON a.organization_id = p.organization_id AND a.payment_id = p.id
      WHERE p.id = ANY($1::uuid[]) GROUP BY p.organization_id, p.id`,
    [ids],
  );
  return new Map(r.rows.map((x: Row) => [x.id, x]));
}

async function obligationRows(ids: string[]): Promise<Map<string, Row>> {
  const r = await client.query(
    `SELECT o.id, o.amount_minor, o.allocated_minor, o.status, o.version::text AS version,
            COALESCE(SUM(a.amount_minor), 0)::text AS sum_allocations, COUNT(a.id)::text AS n
       FROM obligations o LEFT JOIN payment_allocations a ON a.organization_id = o.organization_id AND a.obligation_id = o.id
      WHERE o.id = ANY($1::uuid[]) GROUP BY o.organization_id, o.id`,
    [ids],
  );
  return new Map(r.rows.map((x: Row) => [x.id, x]));
}

async function allocationIds(paymentIds: string[]): Promise<string[]> {
  const r = await client.query(`SELECT id FROM payment_allocations WHERE payment_id = ANY($1::uuid[]) ORDER BY id`, [paymentIds]);
  return r.rows.map((x: Row) => x.id);
}

// Every invariant over a set of payments and obligations, in the database and in the API.
async function checkInvariants(api: Api, paymentIds: string[], obligationIds: string[], accepted: ApiResponse[]) {
  const payments = await paymentRows(paymentIds);
  const obligations = await obligationRows(obligationIds);
  for (const p of payments.values()) {
    expect(BigInt(p.allocated_minor), `payment ${p.id}`).toBe(BigInt(p.sum_allocations));
    expect(BigInt(p.allocated_minor) <= BigInt(p.amount_minor), `payment ${p.id} over-allocated`).toBe(true);
    const view = (await api.get(`/payments/${p.id}`)).body;
    expect(view.allocated_minor).toBe(p.allocated_minor);
    expect(view.unallocated_minor).toBe((BigInt(p.amount_minor) - BigInt(p.allocated_minor)).toString());
    expect(view.allocations.length).toBe(Number(p.n));
    expect(view.allocations.reduce((s: bigint, a: any) => s + BigInt(a.amount_minor), 0n)).toBe(BigInt(p.allocated_minor));
  }
  for (const o of obligations.values()) {
    const allocated = BigInt(o.allocated_minor);
    expect(allocated, `obligation ${o.id}`).toBe(BigInt(o.sum_allocations));
    expect(allocated <= BigInt(o.amount_minor), `obligation ${o.id} over-allocated`).toBe(true);
    // only allocations changed these obligations: one version per allocation
    expect(Number(o.version)).toBe(1 + Number(o.n));
    const status = allocated === 0n ? "OBLIGATION_CAPTURED" : allocated === BigInt(o.amount_minor) ? "RECONCILED" : "PARTIALLY_RECONCILED";
    expect(o.status).toBe(status);
    const view = (await api.get(`/obligations/${o.id}`)).body;
    expect(view).toMatchObject({ allocated_minor: o.allocated_minor, status, version: Number(o.version) });
    expect(view.outstanding_minor).toBe((BigInt(o.amount_minor) - allocated).toString());
  }
  // exactly the accepted allocations exist: none lost, none extra
  expect(await allocationIds(paymentIds)).toEqual(accepted.map((r) => r.body.allocation.id).sort());
  return { payments, obligations };
}

const modes: [string, () => Api[]][] = [
  ["one instance", () => [primaryApi]],
  ["two instances", () => [primaryApi, secondApi]],
];

describe.each(modes)("allocations under concurrency (%s)", (_mode, apis) => {
  it("one payment, 30 concurrent allocations to different obligations: exactly as many fit as the payment allows", async () => {
    const next = roundRobin(apis());
    const pay = await recordPayment(primaryApi, { amount_minor: "10000" });
    const obligations = await Promise.all(Array.from({ length: 30 }, () => newObligation(next(), "1000")));
    const results = await Promise.all(obligations.map((o) => allocateWithRetry(next, pay.id, o.id, "700")));
    const ok = results.filter((r) => r.res.status === 200).map((r) => r.res);
    const refused = results.filter((r) => r.res.status !== 200).map((r) => r.res);
    expect(ok).toHaveLength(14); // 14 x 700 = 9800 <= 10000 < 15 x 700
    for (const r of refused) {
      expect(r.status, r.text).toBe(422);
      expect(r.body.error.code).toBe("allocation_exceeds_remaining");
    }
    const { payments, obligations: rows } = await checkInvariants(
      primaryApi,
      [pay.id],
      obligations.map((o) => o.id),
      ok,
    );
    expect(payments.get(pay.id)!.allocated_minor).toBe("9800");
    expect([...rows.values()].filter((o) => o.status === "PARTIALLY_RECONCILED")).toHaveLength(14);
    // the unallocated 200 still fits exactly once more
    const untouched = obligations.find((o) => rows.get(o.id)!.allocated_minor === "0")!;
    const last = await allocateWithRetry(next, pay.id, untouched.id, "200");
    expect(last.res.status, last.res.text).toBe(200);
    expect(last.res.body.payment.unallocated_minor).toBe("0");
  });

  it("20 payments, concurrent allocations to one obligation; clients re-read and retry on 409 version_conflict", async () => {
    const next = roundRobin(apis());
    const obl = await newObligation(primaryApi, "7000");
    const payments = await Promise.all(Array.from({ length: 20 }, () => recordPayment(next(), { amount_minor: "1000" })));
    const results = await Promise.all(payments.map((p) => allocateWithRetry(next, p.id, obl.id, "500")));
    const ok = results.filter((r) => r.res.status === 200).map((r) => r.res);
    expect(ok).toHaveLength(14); // 14 x 500 = 7000
    for (const r of results.filter((x) => x.res.status !== 200)) {
      expect(r.res.status, r.res.text).toBe(422);
      expect(r.res.body.error.code).toBe("allocation_exceeds_remaining");
    }
    // the conflicts really happened (and were resolved by the clients' retries)
    expect(results.reduce((s, r) => s + r.attempts, 0)).toBeGreaterThan(results.length);
    const versions = ok.map((r) => r.body.obligation.version).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 14 }, (_, i) => i + 2)); // each accepted allocation is exactly one version
    const { obligations } = await checkInvariants(
      primaryApi,
      payments.map((p) => p.id),
      [obl.id],
      ok,
    );
    expect(obligations.get(obl.id)).toMatchObject({ allocated_minor: "7000", status: "RECONCILED", version: "15" });
  });

  it("many-to-many: 6 payments x 6 obligations, every pair at once", async () => {
    const next = roundRobin(apis());
    const payments = await Promise.all(Array.from({ length: 6 }, () => recordPayment(next(), { amount_minor: "1000" })));
    const obligations = await Promise.all(Array.from({ length: 6 }, () => newObligation(next(), "900")));
    const pairs = payments.flatMap((p) => obligations.map((o) => [p.id, o.id] as const));
    const results = await Promise.all(pairs.map(([p, o]) => allocateWithRetry(next, p, o, "300")));
    const ok = results.filter((r) => r.res.status === 200).map((r) => r.res);
    const { payments: prow, obligations: orow } = await checkInvariants(
      primaryApi,
      payments.map((p) => p.id),
      obligations.map((o) => o.id),
      ok,
    );
    // Each pair is tried once, so the result is a maximal (not necessarily maximum)
    // allocation: every refusal must be justified by a side that is full at the end.
    const full = (left: bigint) => left < 300n;
    results.forEach(({ res }, i) => {
      if (res.status === 200) return;
      expect(res.status, res.text).toBe(422);
      expect(res.body.error.code).toBe("allocation_exceeds_remaining");
      const p = prow.get(pairs[i][0])!;
      const o = orow.get(pairs[i][1])!;
      expect(full(BigInt(p.amount_minor) - BigInt(p.allocated_minor)) || full(BigInt(o.amount_minor) - BigInt(o.allocated_minor)), `refused pair ${i}`).toBe(
        true,
      );
    });
    expect(ok.length).toBeGreaterThanOrEqual(9);
    expect(ok.length).toBeLessThanOrEqual(18);
    for (const o of orow.values()) expect(["PARTIALLY_RECONCILED", "RECONCILED"]).toContain(o.status);
  });
});

describe("allocation invariants hold for random concurrent batches (fast-check)", () => {
  const NUM_RUNS = Number(process.env.PAYMENTS_PROPERTY_RUNS ?? 100);

  it(`${NUM_RUNS} runs of random payments, obligations and concurrent allocations over two instances`, async () => {
    const next = roundRobin([primaryApi, secondApi]);
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          payments: fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 3 }),
          obligations: fc.array(fc.record({ amount: fc.integer({ min: 1, max: 1000 }), currency: fc.constantFrom("EUR", "EUR", "EUR", "USD") }), {
            minLength: 1,
            maxLength: 3,
          }),
          allocations: fc.array(fc.record({ p: fc.nat(), o: fc.nat(), amount: fc.integer({ min: 1, max: 700 }) }), { minLength: 1, maxLength: 8 }),
        }),
        async (s) => {
          const payments = await Promise.all(s.payments.map((amount) => recordPayment(next(), { amount_minor: String(amount) })));
          const obligations = await Promise.all(s.obligations.map((o) => newObligation(next(), o.amount, o.currency)));
          const plan = s.allocations.map((a) => ({
            payment: payments[a.p % payments.length],
            obligation: obligations[a.o % obligations.length],
            currency: s.obligations[a.o % obligations.length].currency,
            amount: BigInt(a.amount),
          }));
          const results = await Promise.all(plan.map((a) => allocateWithRetry(next, a.payment.id, a.obligation.id, a.amount.toString())));
          const ok = results.filter((r) => r.res.status === 200).map((r) => r.res);
          const { payments: prow, obligations: orow } = await checkInvariants(
            next(),
            payments.map((p) => p.id),
            obligations.map((o) => o.id),
            ok,
          );
          results.forEach(({ res }, i) => {
            const a = plan[i];
            if (a.currency !== "EUR") {
              expect(res.status, res.text).toBe(422);
              expect(res.body.error.code).toBe("currency_mismatch");
              return;
            }
            if (res.status === 200) {
              expect(res.body.allocation).toMatchObject({ payment_id: a.payment.id, obligation_id: a.obligation.id, amount_minor: a.amount.toString() });
              return;
            }
            expect(res.status, res.text).toBe(422);
            expect(res.body.error.code).toBe("allocation_exceeds_remaining");
            // remaining amounts only shrink: a refusal must still be justified at the end
            const p = prow.get(a.payment.id)!;
            const o = orow.get(a.obligation.id)!;
            const paymentLeft = BigInt(p.amount_minor) - BigInt(p.allocated_minor);
            const obligationLeft = BigInt(o.amount_minor) - BigInt(o.allocated_minor);
            expect(a.amount > paymentLeft || a.amount > obligationLeft, `refused ${a.amount} with ${paymentLeft} / ${obligationLeft} left`).toBe(true);
          });
          accepted += ok.length;
          refused += results.length - ok.length;
        },
      ),
      { numRuns: NUM_RUNS, endOnFailure: true },
    );
    // the generator really exercised both outcomes
    expect(accepted).toBeGreaterThan(NUM_RUNS / 2);
    expect(refused).toBeGreaterThan(NUM_RUNS / 10);
  }, 600_000);
});

// Reversals and credits (docs/obligations.md, Lifecycle) against allocations, at once: the live
// allocations of a payment never exceed it, an obligation's settled amount (live allocations
// + live credits) stays within [0, amount] and equals allocated_minor, and of changes sent
// against one version exactly one wins, the others are 409.
async function settledRows(obligationIds: string[]) {
  const r = await client.query(
    `SELECT o.id, o.amount_minor::text, o.allocated_minor::text, o.credited_minor::text, o.status,
        (SELECT COALESCE(SUM(a.amount_minor), 0) FROM payment_allocations a WHERE a.organization_id = o.organization_id AND a.obligation_id = o.id AND a.reversed_at IS NULL)::text AS live_allocations,
        (SELECT COALESCE(SUM(c.amount_minor), 0) FROM obligation_credits c WHERE c.organization_id = o.organization_id AND c.obligation_id = o.id AND c.reversed_at IS NULL)::text AS live_credits
       FROM obligations o WHERE o.id = ANY($1::uuid[])`,
    [obligationIds],
  );
  return r.rows as Row[];
}

async function livePaymentRows(paymentIds: string[]) {
  const r = await client.query(
    `SELECT p.id, p.amount_minor::text, p.allocated_minor::text,
        (SELECT COALESCE(SUM(a.amount_minor), 0) FROM payment_allocations a WHERE a.organization_id = p.organization_id AND a.payment_id = p.id AND a.reversed_at IS NULL)::text AS live
       FROM payments p WHERE p.id = ANY($1::uuid[])`,
    [paymentIds],
  );
  return r.rows as Row[];
}

async function checkBooks(paymentIds: string[], obligationIds: string[]) {
  for (const p of await livePaymentRows(paymentIds)) {
    expect(p.allocated_minor, `payment ${p.id}: allocated = live allocations`).toBe(p.live);
    expect(BigInt(p.allocated_minor) <= BigInt(p.amount_minor), `payment ${p.id} over-allocated`).toBe(true);
  }
  for (const o of await settledRows(obligationIds)) {
    const settled = BigInt(o.live_allocations) + BigInt(o.live_credits);
    expect(BigInt(o.allocated_minor), `obligation ${o.id}: allocated = payments + credits - reversals`).toBe(settled);
    expect(o.credited_minor).toBe(o.live_credits);
    expect(settled >= 0n && settled <= BigInt(o.amount_minor), `obligation ${o.id} settled out of bounds`).toBe(true);
    if (settled === BigInt(o.amount_minor)) expect(o.status).toBe("RECONCILED");
    else if (settled > 0n) expect(o.status).toBe("PARTIALLY_RECONCILED");
    else expect(["OBLIGATION_CAPTURED", "PAYMENT_REQUESTED", "PAYMENT_CLAIMED"]).toContain(o.status);
  }
}

describe.each(modes)("reversals and credits under concurrency (%s)", (_mode, apis) => {
  it("a reversal racing an allocation and a credit of the same obligation: one wins, the others 409, the books agree", async () => {
    const next = roundRobin(apis());
    const paymentIds: string[] = [];
    const obligationIds: string[] = [];
    for (let round = 0; round < 8; round++) {
      const o = await newObligation(primaryApi, 10_000);
      const p1 = await recordPayment(primaryApi, { amount_minor: "4000" });
      const p2 = await recordPayment(primaryApi, { amount_minor: "3000" });
      paymentIds.push(p1.id, p2.id);
      obligationIds.push(o.id);
      const a = await next().post(`/payments/${p1.id}/allocations`, { obligation_id: o.id, amount_minor: "4000", expected_version: 1 });
      expect(a.status, a.text).toBe(200);
      const results = await Promise.all([
        next().post(`/payments/${p1.id}/allocations/${a.body.allocation.id}/reverse`, { expected_version: 2, reason: "race" }),
        next().post(`/payments/${p2.id}/allocations`, { obligation_id: o.id, amount_minor: "3000", expected_version: 2 }),
        next().post(`/obligations/${o.id}/credits`, { expected_version: 2, kind: "discount", amount_minor: "1000", reason: "race" }),
      ]);
      const won = results.filter((r) => r.status === 200 || r.status === 201);
      expect(won.length, results.map((r) => r.text).join("\n")).toBe(1);
      for (const r of results) if (r.status === 409) expect(r.body.error.code).toBe("version_conflict");
      expect(results.filter((r) => r.status === 409).length).toBe(2);
      const view = (await primaryApi.get(`/obligations/${o.id}`)).body;
      expect(view.version).toBe(3);
    }
    await checkBooks(paymentIds, obligationIds);
  });

  it("the same allocation reversed by 10 clients at once: reversed exactly once", async () => {
    const next = roundRobin(apis());
    const o = await newObligation(primaryApi, 5000);
    const p = await recordPayment(primaryApi, { amount_minor: "5000" });
    const a = await primaryApi.post(`/payments/${p.id}/allocations`, { obligation_id: o.id, amount_minor: "5000", expected_version: 1 });
    expect(a.body.obligation.status).toBe("RECONCILED");
    const results = await Promise.all(
      Array.from({ length: 10 }, () => next().post(`/payments/${p.id}/allocations/${a.body.allocation.id}/reverse`, { expected_version: 2, reason: "twice?" })),
    );
    expect(results.filter((r) => r.status === 200).length).toBe(1);
    for (const r of results) if (r.status !== 200) expect(r.status).toBe(409);
    await checkBooks([p.id], [o.id]);
    const events = await client.query(`SELECT count(*)::int AS n FROM events WHERE obligation_id = $1 AND type = 'payment.allocation_reversed'`, [o.id]);
    expect(events.rows[0].n).toBe(1);
  });

  it("random allocations, credits and reversals with retries on 409: the books stay true", async () => {
    const next = roundRobin(apis());
    const obligations = await Promise.all(Array.from({ length: 4 }, () => newObligation(primaryApi, 20_000)));
    const payments = await Promise.all(Array.from({ length: 6 }, () => recordPayment(primaryApi, { amount_minor: "9000" })));
    const current = async (id: string) => (await next().get(`/obligations/${id}`)).body;
    let queue: Promise<pg.QueryResult> = Promise.resolve({ rows: [] } as unknown as pg.QueryResult);
    // One client's step: re-read, then allocate, credit or reverse something live; 409 and
    // 422 (something moved meanwhile) are part of the game.
    const step = async (i: number) => {
      const o = obligations[i % obligations.length];
      const view = await current(o.id);
      const kind = i % 3;
      if (kind === 0) {
        const p = payments[i % payments.length];
        return next().post(`/payments/${p.id}/allocations`, { obligation_id: o.id, amount_minor: String(500 + (i % 7) * 300), expected_version: view.version });
      }
      if (kind === 1)
        return next().post(`/obligations/${o.id}/credits`, { expected_version: view.version, kind: "write_off", amount_minor: "700", reason: "r" });
      const liveCredit = view.credits.find((c: { reversed_at: string | null }) => !c.reversed_at);
      if (liveCredit && i % 2 === 0) {
        return next().post(`/obligations/${o.id}/credits/${liveCredit.id}/reverse`, { expected_version: view.version, reason: "r" });
      }
      // one query at a time on the shared client
      queue = queue.then(() => client.query(`SELECT id, payment_id FROM payment_allocations WHERE obligation_id = $1 AND reversed_at IS NULL LIMIT 1`, [o.id]));
      const allocs = (await queue).rows;
      if (allocs.length === 0) return null;
      return next().post(`/payments/${allocs[0].payment_id}/allocations/${allocs[0].id}/reverse`, { expected_version: view.version, reason: "r" });
    };
    const results = (await Promise.all(Array.from({ length: 60 }, (_, i) => step(i)))).filter((r) => r !== null);
    for (const r of results) expect([200, 201, 409, 422], r.text).toContain(r.status);
    expect(results.some((r) => r.status === 200 || r.status === 201)).toBe(true);
    await checkBooks(
      payments.map((p) => p.id),
      obligations.map((o) => o.id),
    );
  });
});

describe("whole organization after all of the above", () => {
  it("every payment and obligation: allocated_minor = sum of its live allocations (+ live credits), within its amount (read with pg)", async () => {
    const badPayments = await client.query(
      `SELECT p.id FROM payments p
         LEFT JOIN (SELECT payment_id, SUM(amount_minor) AS s FROM payment_allocations WHERE organization_id = $1 AND reversed_at IS NULL GROUP BY payment_id) a ON a.payment_id = p.id
        WHERE p.organization_id = $1 AND (p.allocated_minor <> COALESCE(a.s, 0) OR p.allocated_minor > p.amount_minor OR p.allocated_minor < 0)`,
      [org.organizationId],
    );
    expect(badPayments.rows).toEqual([]);
    const badObligations = await client.query(
      `SELECT o.id FROM obligations o
         LEFT JOIN (SELECT obligation_id, SUM(amount_minor) AS s FROM payment_allocations WHERE organization_id = $1 AND reversed_at IS NULL GROUP BY obligation_id) a ON a.obligation_id = o.id
         LEFT JOIN (SELECT obligation_id, SUM(amount_minor) AS s FROM obligation_credits WHERE organization_id = $1 AND reversed_at IS NULL GROUP BY obligation_id) c ON c.obligation_id = o.id
        WHERE o.organization_id = $1 AND (o.allocated_minor <> COALESCE(a.s, 0) + COALESCE(c.s, 0) OR o.credited_minor <> COALESCE(c.s, 0)
          OR o.allocated_minor > o.amount_minor OR o.allocated_minor < 0)`,
      [org.organizationId],
    );
    expect(badObligations.rows).toEqual([]);
    // A join across organizations on purpose: on Citus it needs repartition joins (a custom
    // setting PostgreSQL accepts and ignores).
    await client.query("SET citus.enable_repartition_joins = on");
    const crossTenant = await client.query(
      `SELECT a.id FROM payment_allocations a JOIN payments p ON p.id = a.payment_id JOIN obligations o ON o.id = a.obligation_id
        WHERE a.organization_id <> p.organization_id OR a.organization_id <> o.organization_id`,
    );
    expect(crossTenant.rows).toEqual([]);
    const counts = await client.query(`SELECT COUNT(*)::int AS n FROM payment_allocations WHERE organization_id = $1`, [org.organizationId]);
    expect(counts.rows[0].n).toBeGreaterThan(100);
  });
});
