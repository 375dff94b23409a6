import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { db, transaction } from "@/lib/db/client";
import { todayUtc } from "@/lib/schemas/common";
import { addDays } from "@/lib/obligations/terms";
import { summarizeObligations } from "@/lib/obligations/summarize-obligations";
import { ageReceivables } from "@/lib/overview/age-receivables";
import { expectCash } from "@/lib/overview/expect-cash";
import { loadOverview, type LoadOverviewInput } from "@/lib/overview/load-overview";
import { refreshOverviewSnapshot } from "@/lib/overview/refresh-overview-snapshot";
import { newOrg, TEST_PASSWORD, type OrgFixture } from "./support/fixtures";
import { Api, fetchOnce } from "./support/api";
import { startServer, type TestServer } from "./support/server";
import { legacyBody, registerObligation } from "./support/obligations";
import { allocate, recordPayment } from "./support/payments";

// The dashboard overview's two paths (lib/overview/load-overview.ts) on data made through the
// real API: live up to the limit, a stored snapshot above it. The limit is passed in
// (liveMax: 2) so that organizations of a few obligations take the snapshot path.

const today = todayUtc();
const yesterday = addDays(today, -1);
const LIMIT = 2;
let a: OrgFixture;
let b: OrgFixture;

const register = async (org: OrgFixture, over: Record<string, unknown>) => (await registerObligation(org.api, legacyBody(over))).obligation.id as string;
const overview = (input: LoadOverviewInput) => transaction((tx) => loadOverview(tx, input));
// What the page computed for every organization before snapshots: the three scans.
async function live(organizationId: string, day = today) {
  const summary = await summarizeObligations(db(), { organizationId, today: day, overdueLimit: 8 });
  const aging = await ageReceivables(db(), { organizationId, today: day });
  const cash = await expectCash(db(), { organizationId, today: day });
  return { summary, aging, cash };
}
const snapshotRow = async (organizationId: string) =>
  (
    await db().$queryRaw<{ computed_for: Date; computed_at: Date; obligation_count: bigint }[]>`
      SELECT computed_for, computed_at, obligation_count FROM overview_snapshots WHERE organization_id = ${organizationId}::uuid`
  )[0];
// Ages a snapshot, as if computed `seconds` ago (and for `day`).
const age = (organizationId: string, seconds: number, day = today) =>
  db().$executeRaw`UPDATE overview_snapshots SET computed_at = now() - ${seconds}::int * interval '1 second', computed_for = ${day}::date
    WHERE organization_id = ${organizationId}::uuid`;
// Runs the worker's refresh until it has handled `organizationId` (others may be stale too).
async function refreshUntil(organizationId: string, liveMax = LIMIT) {
  for (let i = 0; i < 10; i++) {
    const r = await refreshOverviewSnapshot({ liveMax });
    if (r.organizationId === organizationId || r.action === "none") return r;
  }
  throw new Error("the refresh did not reach the organization");
}

beforeAll(async () => {
  a = await newOrg("Overview A");
  b = await newOrg("Overview B");
  // receivables in several aging buckets, one partly paid, one with payment terms; a payable
  await register(a, { amount_minor: "1000", deadline: addDays(today, -40) });
  await register(a, { amount_minor: "2000", deadline: addDays(today, -3) });
  const partly = await register(a, { amount_minor: "3000", deadline: addDays(today, 5) });
  const p = await recordPayment(a.api, { amount_minor: "1200", currency: "EUR", received_on: today });
  const o = await a.api.get(`/obligations/${partly}`);
  expect((await allocate(a.api, p.id, { obligation_id: partly, amount_minor: "1200", expected_version: o.body.version })).status).toBe(200);
  await register(a, {
    amount_minor: "10001",
    deadline: addDays(today, 60),
    payment_terms: [
      { sequence: 1, amount_type: "percentage", percentage_basis_points: 3000, trigger_type: "immediately", due_rule: "immediately" },
      {
        sequence: 2,
        amount_type: "percentage",
        percentage_basis_points: 7000,
        trigger_type: "specific_date",
        trigger_date: addDays(today, 10),
        due_rule: "immediately",
      },
    ],
  });
  await register(a, {
    organization_role: "debtor",
    creditor: { name: "Landlord" },
    debtor: undefined,
    amount_minor: "9900",
    currency: "USD",
    deadline: addDays(today, -45),
  });
  // another organization, also above the limit, with figures of its own
  for (const amount of ["77700", "88800", "99900"]) await register(b, { amount_minor: amount, currency: "GBP", deadline: addDays(today, -5) });
});

describe("live up to the limit", () => {
  it("computes an organization at or below the limit live, with no snapshot", async () => {
    const small = await newOrg("Overview Small");
    await register(small, { amount_minor: "500", deadline: addDays(today, -2) });
    await register(small, { amount_minor: "700", deadline: addDays(today, 2) });
    const o = await overview({ organizationId: small.organizationId, liveMax: LIMIT });
    expect(o.asOf).toBeNull();
    expect({ summary: o.summary, aging: o.aging, cash: o.cash }).toEqual(await live(small.organizationId));
    expect(await snapshotRow(small.organizationId)).toBeUndefined();
  });
});

describe("snapshot above the limit", () => {
  it("stores a snapshot equal to the live computation, and shows when it was computed", async () => {
    const before = Date.now();
    const o = await overview({ organizationId: a.organizationId, liveMax: LIMIT });
    expect(o.asOf).not.toBeNull();
    expect(Math.abs(Date.parse(o.asOf!) - before)).toBeLessThan(60_000);
    expect({ summary: o.summary, aging: o.aging, cash: o.cash }).toEqual(await live(a.organizationId));
    expect(o.summary.total).toBe(5);
    expect(o.cash.length).toBeGreaterThan(0);
    const row = await snapshotRow(a.organizationId);
    expect(row.computed_at.toISOString()).toBe(o.asOf);
    expect(row.obligation_count).toBe(5n);
    // read again: the same snapshot, not a new one
    const again = await overview({ organizationId: a.organizationId, liveMax: LIMIT });
    expect(again.asOf).toBe(o.asOf);
    expect(again).toEqual(o);
  });

  it("does not show a change made after the snapshot until the worker refreshes it", async () => {
    const first = await overview({ organizationId: a.organizationId, liveMax: LIMIT });
    const late = await register(a, { amount_minor: "4444", deadline: addDays(today, -10) });
    const stale = await overview({ organizationId: a.organizationId, liveMax: LIMIT });
    expect(stale.asOf).toBe(first.asOf);
    expect(stale.summary.total).toBe(first.summary.total);
    expect(stale.aging).toEqual(first.aging);
    expect(stale.cash).toEqual(first.cash);
    // the most-overdue list is read live
    expect(stale.summary.overdue.items.map((i) => i.id)).toContain(late);

    // a fresh snapshot is not the worker's business
    expect((await refreshOverviewSnapshot({ liveMax: LIMIT })).organizationId).not.toBe(a.organizationId);
    await age(a.organizationId, 3600);
    const r = await refreshUntil(a.organizationId);
    expect(r.action).toBe("refreshed");
    const fresh = await overview({ organizationId: a.organizationId, liveMax: LIMIT });
    expect(Date.parse(fresh.asOf!)).toBeGreaterThan(Date.parse(first.asOf!));
    expect(fresh.summary.total).toBe(first.summary.total + 1);
    expect({ summary: fresh.summary, aging: fresh.aging, cash: fresh.cash }).toEqual(await live(a.organizationId));
  });

  it("recomputes a snapshot made for another day, on the page's read and in the worker", async () => {
    await overview({ organizationId: a.organizationId, liveMax: LIMIT });
    // On the page's read: another day's figures are never shown.
    await age(a.organizationId, 60, yesterday);
    const o = await overview({ organizationId: a.organizationId, liveMax: LIMIT });
    expect(Date.parse(o.asOf!)).toBeGreaterThan(Date.now() - 60_000);
    expect(fromRow(await snapshotRow(a.organizationId))).toBe(today);
    expect({ summary: o.summary, aging: o.aging, cash: o.cash }).toEqual(await live(a.organizationId));
    // In the worker: yesterday's snapshot is stale even when it is only a minute old.
    await age(a.organizationId, 60, yesterday);
    const r = await refreshUntil(a.organizationId);
    expect(r.action).toBe("refreshed");
    expect(fromRow(await snapshotRow(a.organizationId))).toBe(today);
  });

  it("computes for the day asked, so yesterday's snapshot matches yesterday's live figures", async () => {
    const o = await overview({ organizationId: a.organizationId, liveMax: LIMIT, today: yesterday });
    expect({ summary: o.summary, aging: o.aging, cash: o.cash }).toEqual(await live(a.organizationId, yesterday));
    expect(fromRow(await snapshotRow(a.organizationId))).toBe(yesterday);
  });

  it("never reads another organization's snapshot", async () => {
    const oa = await overview({ organizationId: a.organizationId, liveMax: LIMIT });
    const ob = await overview({ organizationId: b.organizationId, liveMax: LIMIT });
    expect(ob.asOf).not.toBeNull();
    expect({ summary: ob.summary, aging: ob.aging, cash: ob.cash }).toEqual(await live(b.organizationId));
    expect(ob.summary.total).toBe(3);
    expect(ob.aging.map((s) => s.currency)).toEqual(["GBP"]);
    expect(oa.aging.map((s) => s.currency)).not.toContain("GBP");
    // after both exist, each still reads its own
    const oa2 = await overview({ organizationId: a.organizationId, liveMax: LIMIT });
    expect(oa2.summary).toEqual(oa.summary);
    expect(oa2.asOf).toBe(oa.asOf);
    // an organization without obligations above the limit of 0 gets its own (empty) snapshot
    const empty = await newOrg("Overview Empty");
    const oe = await overview({ organizationId: empty.organizationId, liveMax: 0 });
    expect(oe.summary.total).toBe(0);
    expect(oe.aging).toEqual([]);
    expect(oe.cash).toEqual([]);
  });

  it("drops the snapshot of an organization no longer above the limit (the limit was raised)", async () => {
    await age(b.organizationId, 3600);
    const r = await refreshUntil(b.organizationId, 1000);
    expect(r).toMatchObject({ organizationId: b.organizationId, action: "dropped" });
    expect(await snapshotRow(b.organizationId)).toBeUndefined();
    const o = await overview({ organizationId: b.organizationId, liveMax: 1000 });
    expect(o.asOf).toBeNull();
  });

  it("lets only one of two concurrent refreshes compute an organization", async () => {
    await overview({ organizationId: a.organizationId, liveMax: LIMIT });
    await age(a.organizationId, 3600);
    const [r1, r2] = await Promise.all([refreshOverviewSnapshot({ liveMax: LIMIT }), refreshOverviewSnapshot({ liveMax: LIMIT })]);
    const forA = [r1, r2].filter((r) => r.organizationId === a.organizationId && r.action === "refreshed");
    expect(forA).toHaveLength(1);
  });
});

describe("the overview page", () => {
  // A second server on the same database whose limit puts every organization on the snapshot path.
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ databaseUrl: inject("databaseUrl"), label: "overview-0", env: { OVERVIEW_LIVE_MAX: "0" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("says when the figures of a snapshot were computed and that they refresh; a live overview says nothing of the kind", async () => {
    const page = async (base: string, email: string) => {
      const api = new Api(base);
      const r = await api.post("/session", { email, password: TEST_PASSWORD }, { idempotencyKey: null });
      expect(r.status, r.text).toBe(200);
      const cookie = r.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const res = await fetchOnce(`${base}/dashboard`, { headers: { cookie }, redirect: "manual" });
      expect(res.status).toBe(200);
      return res.text();
    };
    const html = await page(server.baseUrl, b.email);
    expect(html).toMatch(/Figures as of <time datetime="[^"]+">[^<]+UTC<\/time>/i);
    expect(html).toContain("refresh every few minutes");
    const live = await page(inject("baseUrl"), b.email);
    expect(live).not.toContain("Figures as of");
  });
});

function fromRow(row: { computed_for: Date }) {
  return row.computed_for.toISOString().slice(0, 10);
}
