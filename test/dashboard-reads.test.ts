import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { todayUtc } from "@/lib/schemas/common";
import { addDays } from "@/lib/obligations/terms";
import { summarizeObligations } from "@/lib/obligations/summarize-obligations";
import { listRecentEvents } from "@/lib/events/list-recent-events";
import { listOpenObligations } from "@/lib/obligations/list-open-obligations";
import { countObligations } from "@/lib/obligations/count-obligations";
import { summarizeUnallocatedPayments } from "@/lib/payments/summarize-payments";
import { countPayments } from "@/lib/payments/count-payments";
import { listObligationAllocations } from "@/lib/payments/list-obligation-allocations";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { registration } from "./support/bodies";

// The reads behind the dashboard's pages (server components call these domain functions
// directly). The data is made through the real API; the numbers the functions return are
// checked against what the API itself reports, and against another organization's data.

let a: OrgFixture;
let b: OrgFixture;
const today = todayUtc();
const ids: Record<string, string> = {};

async function register(org: OrgFixture, name: string, over: Record<string, unknown>) {
  const r = await org.api.post("/obligations", registration({ debtor: { name }, ...over }));
  expect(r.status).toBe(201);
  return r.body.invoice.id as string;
}

async function pay(org: OrgFixture, obligationId: string, amount: string, currency = "EUR", allocate = amount) {
  const p = await org.api.post("/payments", { amount_minor: amount, currency, received_on: today, payer_name: "Payer", reference: `REF-${amount}` });
  expect(p.status).toBe(201);
  if (allocate !== "0") {
    const o = await org.api.get(`/obligations/${obligationId}`);
    const r = await org.api.post(`/payments/${p.body.id}/allocations`, {
      obligation_id: obligationId,
      amount_minor: allocate,
      expected_version: o.body.version,
    });
    expect(r.status).toBe(200);
  }
  return p.body.id as string;
}

beforeAll(async () => {
  a = await newOrg("Dashboard Reads A");
  b = await newOrg("Dashboard Reads B");
  ids.paid = await register(a, "Paid In Full", { amount_minor: "100000", deadline: addDays(today, -10) });
  ids.partly = await register(a, "Partly Paid", { amount_minor: "25050", deadline: addDays(today, 30) });
  ids.owe = await register(a, "Our Landlord", {
    organization_role: "debtor",
    creditor: { name: "Our Landlord" },
    debtor: undefined,
    amount_minor: "9900",
    currency: "USD",
    deadline: addDays(today, -3),
  });
  ids.yen = await register(a, "Sakura KK", { amount_minor: "5000", currency: "JPY", deadline: addDays(today, -1) });
  ids.eurLate = await register(a, "Late Payer", { amount_minor: "70000", deadline: addDays(today, -20) });
  await pay(a, ids.paid, "100000");
  await pay(a, ids.partly, "10000");
  await pay(a, ids.eurLate, "30000", "EUR", "0"); // recorded, not allocated
  // another organization with an overdue EUR obligation of its own
  ids.other = await register(b, "Someone Else", { amount_minor: "77700", deadline: addDays(today, -5) });
});

describe("summarizeObligations", () => {
  it("counts by status, outstanding by currency and role, and what is overdue, for one organization only", async () => {
    const s = await summarizeObligations(db(), { organizationId: a.organizationId });
    expect(s.total).toBe(5);
    expect(s.counts).toEqual({ OBLIGATION_CAPTURED: 3, PAYMENT_REQUESTED: 0, PAYMENT_CLAIMED: 0, PARTIALLY_RECONCILED: 1, RECONCILED: 1 });
    expect(s.outstanding).toEqual([
      { currency: "EUR", organization_role: "creditor", count: 2, amount_minor: "95050", allocated_minor: "10000", outstanding_minor: "85050" },
      { currency: "JPY", organization_role: "creditor", count: 1, amount_minor: "5000", allocated_minor: "0", outstanding_minor: "5000" },
      { currency: "USD", organization_role: "debtor", count: 1, amount_minor: "9900", allocated_minor: "0", outstanding_minor: "9900" },
    ]);
    // the reconciled one is past its deadline but not overdue; the most overdue comes first
    expect(s.overdue.count).toBe(3);
    expect(s.overdue.totals.map((t) => [t.currency, t.organization_role, t.outstanding_minor])).toEqual([
      ["EUR", "creditor", "70000"],
      ["JPY", "creditor", "5000"],
      ["USD", "debtor", "9900"],
    ]);
    expect(s.overdue.items.map((o) => [o.counterparty, o.days_overdue])).toEqual([
      ["Late Payer", 20],
      ["Our Landlord", 3],
      ["Sakura KK", 1],
    ]);
  });

  it("agrees with GET /obligations", async () => {
    const list = await a.api.get("/obligations?limit=100");
    const open = (list.body.items as { status: string; currency: string; organization_role: string; amount_minor: string; allocated_minor: string }[]).filter(
      (o) => o.status !== "RECONCILED",
    );
    const s = await summarizeObligations(db(), { organizationId: a.organizationId });
    for (const t of s.outstanding) {
      const expected = open
        .filter((o) => o.currency === t.currency && o.organization_role === t.organization_role)
        .reduce((sum, o) => sum + BigInt(o.amount_minor) - BigInt(o.allocated_minor), 0n);
      expect(t.outstanding_minor).toBe(expected.toString());
    }
    expect(await countObligations(db(), { organizationId: a.organizationId })).toBe(list.body.items.length);
  });

  it("another organization sees only its own", async () => {
    const s = await summarizeObligations(db(), { organizationId: b.organizationId });
    expect(s.total).toBe(1);
    expect(s.outstanding).toEqual([
      { currency: "EUR", organization_role: "creditor", count: 1, amount_minor: "77700", allocated_minor: "0", outstanding_minor: "77700" },
    ]);
    expect(s.overdue.items.map((o) => o.id)).toEqual([ids.other]);
  });
});

describe("listRecentEvents", () => {
  it("lists the organization's latest events, newest first, with the obligation they are about", async () => {
    const events = await listRecentEvents(db(), { organizationId: a.organizationId, limit: 100 });
    expect(events.length).toBeGreaterThanOrEqual(5 + 2 + 1); // registrations, allocations, a recorded payment
    const times = events.map((e) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(events[0].event_type).toBe("payment.recorded");
    const registered = events.filter((e) => e.event_type === "obligation.registered").map((e) => e.obligation?.counterparty);
    expect(registered.sort()).toEqual(["Late Payer", "Our Landlord", "Paid In Full", "Partly Paid", "Sakura KK"]);
    expect(events.some((e) => e.obligation?.id === ids.other)).toBe(false);
    expect(events.every((e) => e.actor.label === "API key")).toBe(true);
    expect(await listRecentEvents(db(), { organizationId: a.organizationId, limit: 3 })).toHaveLength(3);
  });
});

describe("payment reads", () => {
  it("open obligations for an allocation: not reconciled, of the currency, with what is outstanding and the version", async () => {
    const open = await listOpenObligations(db(), { organizationId: a.organizationId, currency: "EUR" });
    expect(open.map((o) => [o.id, o.outstanding_minor]).sort()).toEqual(
      [
        [ids.partly, "15050"],
        [ids.eurLate, "70000"],
      ].sort(),
    );
    const detail = await a.api.get(`/obligations/${ids.partly}`);
    expect(open.find((o) => o.id === ids.partly)?.version).toBe(detail.body.version);
    expect(await listOpenObligations(db(), { organizationId: b.organizationId, currency: "EUR" })).toHaveLength(1);
  });

  it("what is left to allocate, and where an obligation's allocated amount comes from", async () => {
    expect(await summarizeUnallocatedPayments(db(), { organizationId: a.organizationId })).toEqual([{ currency: "EUR", count: 1, unallocated_minor: "30000" }]);
    expect(await summarizeUnallocatedPayments(db(), { organizationId: b.organizationId })).toEqual([]);
    expect(await countPayments(db(), { organizationId: a.organizationId })).toBe(3);
    const allocations = await listObligationAllocations(db(), { organizationId: a.organizationId, obligationId: ids.partly });
    expect(allocations).toHaveLength(1);
    expect(allocations[0]).toMatchObject({ amount_minor: "10000", payment: { reference: "REF-10000", currency: "EUR", amount_minor: "10000" } });
    expect(await listObligationAllocations(db(), { organizationId: b.organizationId, obligationId: ids.partly })).toEqual([]);
  });
});
