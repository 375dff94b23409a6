import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { todayUtc } from "@/lib/schemas/common";
import { addDays } from "@/lib/obligations/terms";
import { ageReceivables, AGING_BUCKETS } from "@/lib/overview/age-receivables";
import { expectCash, CASH_WEEKS } from "@/lib/overview/expect-cash";
import { daysBetween } from "@/lib/dashboard/format";
import { minorToDecimal } from "@/lib/money/format";
import { baseUrl, fetchOnce } from "./support/api";
import { newOrg, signedIn, type OrgFixture } from "./support/fixtures";
import { legacyBody, registerObligation } from "./support/obligations";
import { allocate, recordPayment } from "./support/payments";
import { parseCsv } from "./support/csv";

// The overview's charts (aging, cash expected) and the list's CSV export, on data made
// through the real API. Every expected number is computed from what the API itself reports
// for the obligations (amount, allocated, deadline, the terms' amounts and payable_on), so
// the charts' SQL is checked against the terms engine, not against a copy of itself.

const today = todayUtc();
let a: OrgFixture;
let b: OrgFixture;
const agingIds: Record<number, string> = {};

type Ob = Record<string, any>;
const getOb = async (org: OrgFixture, id: string): Promise<Ob> => {
  const r = await org.api.get(`/obligations/${id}`);
  expect(r.status, r.text).toBe(200);
  return r.body;
};
const register = async (org: OrgFixture, over: Record<string, unknown>) => (await registerObligation(org.api, legacyBody(over))).obligation.id as string;

async function payAndAllocate(org: OrgFixture, id: string, amount: string, currency = "EUR") {
  const p = await recordPayment(org.api, { amount_minor: amount, currency, received_on: today });
  const o = await getOb(org, id);
  const r = await allocate(org.api, p.id, { obligation_id: id, amount_minor: amount, expected_version: o.version });
  expect(r.status, r.text).toBe(200);
}

// days past due -> aging bucket, as the chart documents it
const agingIndex = (daysPast: number) => (daysPast <= 0 ? 0 : daysPast <= 30 ? 1 : daysPast <= 60 ? 2 : daysPast <= 90 ? 3 : 4);

beforeAll(async () => {
  a = await newOrg("Charts A");
  b = await newOrg("Charts B");
  // EUR receivables on each bucket boundary; amounts are distinct powers of two so a sum
  // shows which obligations went where
  const boundaries = [-5, 0, 1, 30, 31, 60, 61, 90, 91];
  for (const [i, d] of boundaries.entries()) {
    agingIds[d] = await register(a, { amount_minor: String(2 ** i * 100), deadline: addDays(today, -d) });
  }
  // partly paid (outstanding counts, not the amount) and fully paid (left out)
  await payAndAllocate(a, agingIds[31], "150");
  await payAndAllocate(a, agingIds[1], String(2 ** 2 * 100));
  // payables in USD (the organization owes), and another organization's overdue invoice
  await register(a, {
    organization_role: "debtor",
    creditor: { name: "Landlord" },
    debtor: undefined,
    amount_minor: "9900",
    currency: "USD",
    deadline: addDays(today, -45),
  });
  await register(b, { amount_minor: "77700", deadline: addDays(today, -5) });
});

describe("aging", () => {
  it("buckets outstanding amounts by days past the deadline, at each boundary, like the API's numbers", async () => {
    const series = await ageReceivables(db(), { organizationId: a.organizationId });
    const expected = new Map<string, { n: number[]; sums: bigint[] }>();
    const list = await a.api.get("/obligations?limit=100");
    expect(list.status).toBe(200);
    for (const o of list.body.items as Ob[]) {
      if (o.status === "RECONCILED") continue;
      const key = `${o.organization_role}|${o.currency}`;
      const e = expected.get(key) ?? { n: [0, 0, 0, 0, 0], sums: [0n, 0n, 0n, 0n, 0n] };
      const i = agingIndex(daysBetween(o.deadline, today));
      e.n[i] += 1;
      e.sums[i] += BigInt(o.amount_minor) - BigInt(o.allocated_minor);
      expected.set(key, e);
    }
    expect(series.map((s) => `${s.organization_role}|${s.currency}`)).toEqual(["creditor|EUR", "debtor|USD"]);
    for (const s of series) {
      const e = expected.get(`${s.organization_role}|${s.currency}`)!;
      expect(s.buckets.map((x) => x.count)).toEqual(e.n);
      expect(s.buckets.map((x) => x.outstanding_minor)).toEqual(e.sums.map(String));
    }
    // and explicitly: 2^i*100 for boundary i; day 1 is paid in full, day 31 partly (150)
    const eur = series[0].buckets;
    expect(eur.map((x) => x.key)).toEqual(AGING_BUCKETS.map((x) => x.key));
    expect(eur.map((x) => x.outstanding_minor)).toEqual([
      String(100 + 200), // 5 days ahead, due today (day 0)
      String(800), // day 1 paid; day 30
      String(1600 - 150 + 3200), // day 31 (partly paid), day 60
      String(6400 + 12800), // day 61, day 90
      String(25600), // day 91
    ]);
    expect(eur.map((x) => x.count)).toEqual([2, 1, 2, 2, 1]);
    expect(series[0].total_minor).toBe(String(300 + 800 + 4650 + 19200 + 25600));
    expect(series[1].buckets.map((x) => x.outstanding_minor)).toEqual(["0", "0", "9900", "0", "0"]);
  });

  it("shows one organization's numbers only", async () => {
    const series = await ageReceivables(db(), { organizationId: b.organizationId });
    expect(series).toHaveLength(1);
    expect(series[0].buckets[1]).toMatchObject({ count: 1, outstanding_minor: "77700" });
  });
});

describe("cash expected", () => {
  let org: OrgFixture;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    org = await newOrg("Charts Cash");
    // no terms: the whole amount on the deadline (week 1, week 3, after week 8, late)
    ids.plain = await register(org, { amount_minor: "1000", deadline: addDays(today, 3) });
    ids.week3 = await register(org, { amount_minor: "2000", deadline: addDays(today, 14) });
    ids.later = await register(org, { amount_minor: "3000", deadline: addDays(today, 7 * CASH_WEEKS) });
    ids.lastDay = await register(org, { amount_minor: "3500", deadline: addDays(today, 7 * CASH_WEEKS - 1) });
    ids.late = await register(org, { amount_minor: "4000", deadline: addDays(today, -2) });
    // percentage terms with a rounding remainder (30% of 100001 = 30000, 70% -> 70001),
    // a condition that is still waiting (no date yet) and one satisfied
    const terms = await registerObligation(
      org.api,
      legacyBody({
        amount_minor: "100001",
        deadline: addDays(today, 60),
        conditions: [
          { key: "delivery", label: "Delivery" },
          { key: "acceptance", label: "Acceptance" },
        ],
        payment_terms: [
          { sequence: 1, amount_type: "percentage", percentage_basis_points: 3000, trigger_type: "immediately", due_rule: "immediately" },
          {
            sequence: 2,
            amount_type: "percentage",
            percentage_basis_points: 5000,
            trigger_type: "specific_date",
            trigger_date: addDays(today, 10),
            due_rule: "days_after_trigger",
            due_days: 14,
          },
          {
            sequence: 3,
            amount_type: "percentage",
            percentage_basis_points: 1000,
            trigger_type: "condition_satisfied",
            condition_key: "delivery",
            due_rule: "immediately",
          },
          {
            sequence: 4,
            amount_type: "percentage",
            percentage_basis_points: 1000,
            trigger_type: "condition_satisfied",
            condition_key: "acceptance",
            due_rule: "days_after_trigger",
            due_days: 7,
          },
        ],
      }),
    );
    ids.terms = terms.obligation.id;
    const acceptance = (terms.obligation.conditions as Ob[]).find((c) => c.key === "acceptance")!;
    const o = await getOb(org, ids.terms);
    const sat = await org.api.post(`/obligations/${ids.terms}/conditions/${acceptance.id}/satisfy`, { expected_version: o.version });
    expect(sat.status, sat.text).toBe(200);
    // the first term (30000) is paid plus 5: allocation covers the earliest payable term first
    // (term 4, payable in a week, before term 2, payable in 24 days)
    await payAndAllocate(org, ids.terms, "30005");
    // a date the issuer expects payment on moves the whole outstanding amount there
    ids.promised = await register(org, { amount_minor: "5000", deadline: addDays(today, -30) });
    const p = await getOb(org, ids.promised);
    const act = await org.api.post(`/obligations/${ids.promised}/actions`, {
      action: "set_expected_payment_date",
      expected_version: p.version,
      expected_payment_date: addDays(today, 20),
    });
    expect(act.status, act.text).toBe(200);
    // payables in GBP
    ids.payable = await register(org, {
      organization_role: "debtor",
      creditor: { name: "Supplier" },
      debtor: undefined,
      amount_minor: "700",
      currency: "GBP",
      deadline: today,
    });
  });

  // The same rules, over the API's own numbers for each obligation.
  async function expectedFromApi() {
    const out = new Map<string, bigint[]>();
    for (const id of Object.values(ids)) {
      const o = await getOb(org, id);
      if (o.status === "RECONCILED") continue;
      const terms: { amount: bigint; on: string | null; seq: number }[] = o.payment_terms.length
        ? o.payment_terms.map((t: Ob) => ({ amount: BigInt(t.amount_minor), on: t.payable_on ?? null, seq: t.sequence }))
        : [{ amount: BigInt(o.amount_minor), on: o.deadline, seq: 1 }];
      terms.sort((x, y) => (x.on === y.on ? x.seq - y.seq : x.on === null ? 1 : y.on === null ? -1 : x.on < y.on ? -1 : 1));
      let paid = BigInt(o.allocated_minor);
      const key = `${o.organization_role}|${o.currency}`;
      const sums = out.get(key) ?? new Array(CASH_WEEKS + 3).fill(0n);
      for (const t of terms) {
        const covered = paid < t.amount ? paid : t.amount;
        paid -= covered;
        const left = t.amount - covered;
        if (left === 0n) continue;
        const on = o.expected_payment_date || t.on;
        const i =
          on === null
            ? CASH_WEEKS + 2
            : on < today
              ? 0
              : daysBetween(today, on) >= 7 * CASH_WEEKS
                ? CASH_WEEKS + 1
                : Math.floor(daysBetween(today, on) / 7) + 1;
        sums[i] += left;
      }
      out.set(key, sums);
    }
    return out;
  }

  it("spreads outstanding amounts over late, eight weeks, later and not yet dated, like the API's terms", async () => {
    const series = await expectCash(db(), { organizationId: org.organizationId });
    const expected = await expectedFromApi();
    expect(series.map((s) => `${s.organization_role}|${s.currency}`)).toEqual(["creditor|EUR", "debtor|GBP"]);
    for (const s of series) expect(s.periods.map((p) => p.expected_minor)).toEqual(expected.get(`${s.organization_role}|${s.currency}`)!.map(String));

    const eur = Object.fromEntries(series[0].periods.map((p) => [p.key, p]));
    expect(eur.late.expected_minor).toBe("4000");
    // week 1: the plain one; term 1 is paid
    expect(eur.w1).toMatchObject({ expected_minor: "1000", count: 1, from: today, to: addDays(today, 6) });
    expect(eur.w3).toMatchObject({ expected_minor: "7000", count: 2 }); // day 14 (2000) and the promised date, day 20 (5000)
    // term 4 (10001 with the percentages' rounding remainder, 5 paid): acceptance satisfied
    // today + 7 days (week 2); term 2 (50000) due on day 24 (week 4)
    expect(eur.w2.expected_minor).toBe("9996");
    expect(eur.w4.expected_minor).toBe("50000");
    expect(eur.w8.expected_minor).toBe("3500");
    expect(eur.later.expected_minor).toBe("3000");
    // term 3 waits for delivery
    expect(eur.unscheduled.expected_minor).toBe("10000");
    expect(series[1].periods.find((p) => p.key === "w1")!.expected_minor).toBe("700");
  });
});

describe("CSV export", () => {
  const csvGet = async (cookie: string, query: string) => {
    const r = await fetchOnce(`${baseUrl()}/dashboard/obligations/export${query}`, { headers: { cookie }, redirect: "manual" });
    return { status: r.status, headers: r.headers, text: await r.text() };
  };
  it("streams the filtered list in the list's order, in batches, formula-safe, with exact amounts", async () => {
    const org = await newOrg("Charts Export");
    const cookie = (await signedIn(org.email)).cookie!;
    // more than one batch (500), with ties of the sort key across the batch boundary
    const n = 620;
    const names = ["=cmd|' /C calc'!A0", "+Plus", "-Minus", "@At", 'Quote "Q", Inc.'];
    for (let i = 0; i < n; i++) {
      await register(org, {
        amount_minor: String(1000 + i),
        currency: i % 3 === 0 ? "JPY" : "EUR",
        deadline: addDays(today, (i % 40) - 20),
        debtor: { name: i < names.length ? names[i] : `Debtor ${i}` },
      });
    }
    const all = await csvGet(cookie, "?sort=amount&direction=asc");
    expect(all.status).toBe(200);
    expect(all.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(all.headers.get("content-disposition")).toMatch(/^attachment; filename="obligations-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parseCsv(all.text);
    const head = rows[0];
    expect(head.slice(0, 3)).toEqual(["reference", "invoice_number", "obligation_type"]);
    const col = (r: string[], name: string) => r[head.indexOf(name)];
    const body = rows.slice(1);
    expect(body).toHaveLength(n);
    expect(body.map((r) => col(r, "amount"))).toEqual(
      Array.from({ length: n }, (_, i) => (i % 3 === 0 ? String(1000 + i) : minorToDecimal(String(1000 + i), "EUR"))),
    );
    expect(new Set(body.map((r) => col(r, "reference"))).size).toBe(n);
    expect(body.slice(0, 5).map((r) => col(r, "counterparty_name"))).toEqual(["'=cmd|' /C calc'!A0", "'+Plus", "'-Minus", "'@At", 'Quote "Q", Inc.']);

    // the same filters and order as GET /obligations (every page of it); the page's own
    // limit and offset do not cut the export
    const apiAll = async (query: string) => {
      const items: Ob[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await org.api.get(`/obligations?limit=100&offset=${offset}&${query}`);
        expect(page.status, page.text).toBe(200);
        items.push(...page.body.items);
        if (page.body.items.length < 100) return items;
      }
    };
    const byDeadline = parseCsv((await csvGet(cookie, "?sort=deadline&direction=desc&limit=10&offset=30")).text).slice(1);
    expect(byDeadline.map((r) => col(r, "reference"))).toEqual((await apiAll("sort=deadline&direction=desc")).map((o) => o.reference));
    const filtered = parseCsv((await csvGet(cookie, "?currency=JPY&overdue=true&sort=deadline")).text).slice(1);
    const apiFiltered = await apiAll("currency=JPY&overdue=true&sort=deadline");
    expect(apiFiltered.length).toBeGreaterThan(50);
    expect(filtered.map((r) => col(r, "reference"))).toEqual(apiFiltered.map((o) => o.reference));
    expect(filtered.every((r) => col(r, "overdue") === "true" && col(r, "currency") === "JPY")).toBe(true);
    expect(filtered.map((r) => col(r, "outstanding"))).toEqual(apiFiltered.map((o) => String(BigInt(o.amount_minor) - BigInt(o.allocated_minor))));

    // another organization's session sees none of it; bad filters are a 400 naming the field
    const other = (await signedIn(b.email)).cookie!;
    expect(parseCsv((await csvGet(other, "?search=Debtor")).text)).toHaveLength(1);
    const bad = await csvGet(cookie, "?currency=XYZ");
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/^currency:/);
    expect((await csvGet("", "")).status).toBe(401);
  }, 300_000);
});
