import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { ZAcceptSuggestionResult, ZSuggestionList } from "@/lib/schemas/reconciliation";
import { apiKeyWith, newOrg, signedIn, userWith, type OrgFixture } from "./support/fixtures";
import { dayOffset } from "./support/obligations";
import { recordPayment } from "./support/payments";

// Match suggestions and their acceptance over HTTP, with payments recorded through
// POST /payments (bank statement imports are in bank-statements.test.ts).

async function obligation(org: OrgFixture, o: { amount: string; debtor?: string; invoice?: string; currency?: string }) {
  const invoice = o.invoice ?? `INV-${randomUUID().slice(0, 8)}`;
  const r = await org.api.post("/obligations", {
    obligation_type: "invoice",
    external_reference: { namespace: "erp", id: `${invoice}-${randomUUID().slice(0, 6)}` },
    debtor: { name: o.debtor ?? "Northwind Traders Ltd", email: "ap@northwind.example" },
    amount_minor: o.amount,
    currency: o.currency ?? "EUR",
    deadline: dayOffset(3),
    business_context: { invoice_number: invoice },
  });
  expect(r.status, r.text).toBe(201);
  const d = await org.api.get(`/obligations/${r.body.obligation.id}`);
  expect(d.status, d.text).toBe(200);
  return d.body as { id: string; reference: string; payment_reference: string; version: number; invoice_number?: string };
}

const suggestions = async (org: OrgFixture, paymentId: string) => {
  const r = await org.api.get(`/payments/${paymentId}/suggestions`);
  expect(r.status, r.text).toBe(200);
  return ZSuggestionList.parse(r.body).items;
};

describe("GET /payments/{id}/suggestions and accept", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Reconciliation Ltd");
    other = await newOrg("Other Reconciliation Tenant");
  });

  it("an RF payment reference in the remittance is exact; accepting allocates, capped at the outstanding amount", async () => {
    const o = await obligation(org, { amount: "50000" });
    const rf = o.payment_reference.replace(/(.{4})/g, "$1 ").toLowerCase();
    const p = await recordPayment(org.api, { amount_minor: "60000", reference: `Payment ${rf}`, payer_name: "Someone" });
    const items = await suggestions(org, p.id);
    expect(items[0].confidence).toBe("exact");
    expect(items[0].score).toBe(1);
    expect(items[0].allocations).toEqual([
      {
        obligation_id: o.id,
        obligation_reference: o.reference,
        invoice_number: expect.any(String),
        amount_minor: "50000",
        outstanding_minor: "50000",
        expected_version: 1,
      },
    ]);
    const ev = Object.fromEntries(items[0].evidence.map((e) => [e.signal, e]));
    expect(ev.payment_reference.matched).toBe(true);
    expect(ev.payment_reference.detail).toContain(o.payment_reference.slice(0, 4));
    expect(Object.keys(ev).sort()).toEqual(["amount", "date", "invoice_number", "obligation_reference", "payer", "payment_reference", "reported_payment"]);

    const a = await org.api.post(`/payments/${p.id}/suggestions/${items[0].id}/accept`);
    expect(a.status, a.text).toBe(200);
    const res = ZAcceptSuggestionResult.parse(a.body);
    expect(res.payment.allocated_minor).toBe("50000");
    expect(res.payment.unallocated_minor).toBe("10000");
    expect(res.allocations).toMatchObject([{ obligation_id: o.id, amount_minor: "50000", payment_id: p.id }]);
    expect(res.obligations).toMatchObject([{ id: o.id, status: "RECONCILED", allocated_minor: "50000", version: 2 }]);
    const events = await db().event.findMany({ where: { organizationId: org.organizationId, paymentId: p.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.type)).toEqual(["payment.recorded", "payment.allocated"]);
    // The reconciled obligation is never suggested again; the rest of the payment waits.
    expect(await suggestions(org, p.id)).toEqual([]);
  });

  it("accepting is idempotent with the same key; a suggestion id that is not current is 409 suggestion_stale", async () => {
    const o = await obligation(org, { amount: "42000" });
    const p = await recordPayment(org.api, { amount_minor: "42000", reference: o.payment_reference });
    const [s] = await suggestions(org, p.id);
    const key = `accept-${randomUUID()}`;
    const a = await org.api.post(`/payments/${p.id}/suggestions/${s.id}/accept`, {}, { idempotencyKey: key });
    const b = await org.api.post(`/payments/${p.id}/suggestions/${s.id}/accept`, {}, { idempotencyKey: key });
    expect(a.status, a.text).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.body).toEqual(a.body);
    const again = await org.api.post(`/payments/${p.id}/suggestions/${s.id}/accept`);
    expect(again.status, again.text).toBe(409);
    expect(again.body.error.code).toBe("suggestion_stale");
    const garbage = await org.api.post(`/payments/${p.id}/suggestions/not-a-suggestion/accept`);
    expect(garbage.status).toBe(409);
    expect(garbage.body.error.code).toBe("suggestion_stale");
  });

  it("an obligation whose version moved since: 409 version_conflict, nothing changed", async () => {
    const o = await obligation(org, { amount: "80000" });
    const p = await recordPayment(org.api, { amount_minor: "30000", reference: `RF ${o.payment_reference}` });
    const [s] = await suggestions(org, p.id);
    expect(s.allocations[0].expected_version).toBe(1);
    const bump = await org.api.post(`/obligations/${o.id}/actions`, { action: "mark_sent", expected_version: 1 });
    expect(bump.status, bump.text).toBe(200);
    const r = await org.api.post(`/payments/${p.id}/suggestions/${s.id}/accept`);
    expect(r.status, r.text).toBe(409);
    expect(r.body.error.code).toBe("version_conflict");
    const after = await org.api.get(`/payments/${p.id}`);
    expect(after.body.allocated_minor).toBe("0");
    expect((await org.api.get(`/obligations/${o.id}`)).body).toMatchObject({ allocated_minor: "0", version: 2 });
    // The fresh suggestion carries the new version and works.
    const [fresh] = await suggestions(org, p.id);
    expect(fresh.allocations[0].expected_version).toBe(2);
    expect(fresh.id).not.toBe(s.id);
    expect((await org.api.post(`/payments/${p.id}/suggestions/${fresh.id}/accept`)).status).toBe(200);
  });

  it("one transfer for two invoices of one customer: a split suggestion, accepted atomically", async () => {
    const debtor = `Contoso ${randomUUID().slice(0, 6)} GmbH`;
    const a = await obligation(org, { amount: "250000", debtor });
    const b = await obligation(org, { amount: "350000", debtor });
    await obligation(org, { amount: "100000", debtor });
    const p = await recordPayment(org.api, { amount_minor: "600000", payer_name: debtor.toUpperCase().replace(" GMBH", ""), reference: "Dezember" });
    const items = await suggestions(org, p.id);
    const split = items.find((s) => s.allocations.length === 2)!;
    expect(split).toBeDefined();
    expect(split.allocations.map((x) => x.obligation_id).sort()).toEqual([a.id, b.id].sort());
    expect(split.evidence.find((e) => e.signal === "amount")).toMatchObject({ matched: true });
    expect(split.evidence.find((e) => e.signal === "payer")).toMatchObject({ matched: true });
    const r = await org.api.post(`/payments/${p.id}/suggestions/${split.id}/accept`);
    expect(r.status, r.text).toBe(200);
    const res = ZAcceptSuggestionResult.parse(r.body);
    expect(res.payment.unallocated_minor).toBe("0");
    expect(res.allocations).toHaveLength(2);
    expect(res.obligations.map((x) => x.status)).toEqual(["RECONCILED", "RECONCILED"]);
    const events = await db().event.findMany({ where: { organizationId: org.organizationId, paymentId: p.id, type: "payment.allocated" } });
    expect(events).toHaveLength(2);
    expect(await suggestions(org, p.id)).toEqual([]);
  });

  it("a split with one stale member changes nothing", async () => {
    const debtor = `Fabrikam ${randomUUID().slice(0, 6)} SA`;
    const a = await obligation(org, { amount: "11100", debtor });
    const b = await obligation(org, { amount: "22200", debtor });
    const p = await recordPayment(org.api, { amount_minor: "33300", payer_name: debtor });
    const split = (await suggestions(org, p.id)).find((s) => s.allocations.length === 2)!;
    const last = [a.id, b.id].sort()[1];
    expect((await org.api.post(`/obligations/${last}/actions`, { action: "mark_sent", expected_version: 1 })).status).toBe(200);
    const r = await org.api.post(`/payments/${p.id}/suggestions/${split.id}/accept`);
    expect(r.status, r.text).toBe(409);
    expect(r.body.error.code).toBe("version_conflict");
    expect((await org.api.get(`/payments/${p.id}`)).body.allocations).toEqual([]);
    for (const id of [a.id, b.id]) expect((await org.api.get(`/obligations/${id}`)).body.allocated_minor).toBe("0");
  });

  it("a near-miss invoice number is not a match; a whole-token one is", async () => {
    const tag = randomUUID().slice(0, 5).toUpperCase();
    const o = await obligation(org, { amount: "12345", invoice: `INV${tag}-12`, debtor: "Near Miss Co" });
    const p = await recordPayment(org.api, { amount_minor: "777", reference: `INV${tag}-123 X${`INV${tag}-12`} INV${tag}-12/2026`, payer_name: "Nobody" });
    expect((await suggestions(org, p.id)).filter((s) => s.allocations.some((a) => a.obligation_id === o.id))).toEqual([]);
    const q = await recordPayment(org.api, { amount_minor: "12345", reference: `Invoice inv${tag.toLowerCase()}-12, thanks`, payer_name: "Nobody" });
    const [s] = await suggestions(org, q.id);
    expect(s.allocations[0].obligation_id).toBe(o.id);
    expect(s.confidence).toBe("high");
    expect(s.evidence.find((e) => e.signal === "invoice_number")).toMatchObject({ matched: true });
  });

  it("never another organization's obligation, another currency or the wrong direction", async () => {
    const foreign = await obligation(other, { amount: "50000" });
    const p = await recordPayment(org.api, { amount_minor: "50000", reference: foreign.payment_reference, payer_name: "Other" });
    expect((await suggestions(org, p.id)).flatMap((s) => s.allocations.map((a) => a.obligation_id))).not.toContain(foreign.id);
    const usd = await obligation(org, { amount: "50001", currency: "USD" });
    const q = await recordPayment(org.api, { amount_minor: "50001", reference: usd.payment_reference });
    expect(await suggestions(org, q.id)).toEqual([]);
    const mine = await obligation(org, { amount: "50002" });
    const out = await recordPayment(org.api, { amount_minor: "50002", reference: mine.payment_reference, direction: "outgoing" });
    expect(await suggestions(org, out.id)).toEqual([]);
  });

  it("another organization's payment is 404 on every path; scopes and roles", async () => {
    const p = await recordPayment(org.api, { amount_minor: "1000" });
    expect((await other.api.get(`/payments/${p.id}/suggestions`)).status).toBe(404);
    const x = await other.api.post(`/payments/${p.id}/suggestions/sug_000000000000000000000000v1/accept`);
    expect(x.status).toBe(404);
    expect((await org.api.get(`/payments/not-a-uuid/suggestions`)).status).toBe(404);

    const reader = await apiKeyWith(org, ["payments:read"]);
    expect((await reader.get(`/payments/${p.id}/suggestions`)).status).toBe(200);
    const denied = await reader.post(`/payments/${p.id}/suggestions/sug_000000000000000000000000v1/accept`);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("insufficient_scope");
    const noRead = await apiKeyWith(org, ["obligations:read"]);
    expect((await noRead.get(`/payments/${p.id}/suggestions`)).status).toBe(403);
    const viewer = await userWith(org, "viewer");
    const session = await signedIn(viewer.email);
    expect((await session.get(`/payments/${p.id}/suggestions`)).status).toBe(200);
    const v = await session.post(`/payments/${p.id}/suggestions/sug_000000000000000000000000v1/accept`);
    expect(v.status).toBe(403);
    expect(v.body.error.code).toBe("insufficient_permission");
    const body = await org.api.post(`/payments/${p.id}/suggestions/sug_000000000000000000000000v1/accept`, { amount_minor: "1" });
    expect(body.status).toBe(422);
  });
});
