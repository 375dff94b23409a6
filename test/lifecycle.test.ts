import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { ZCreditResult, ZObligationDetail, ZMutationResult } from "@/lib/schemas/obligations";
import { ZPayment, ZPaymentAllocationResult } from "@/lib/schemas/payments";
import { ZAcceptSuggestionResult } from "@/lib/schemas/reconciliation";
import { summarizeObligations } from "@/lib/obligations/summarize-obligations";
import { ageReceivables } from "@/lib/overview/age-receivables";
import { listPayments } from "@/lib/payments/list-payments";
import { countPayments } from "@/lib/payments/count-payments";
import { summarizeUnallocatedPayments } from "@/lib/payments/summarize-payments";
import { listOpenObligations } from "@/lib/obligations/list-open-obligations";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { dayOffset, legacyBody, milestoneBody } from "./support/obligations";
import { allocate, newObligation, recordPayment } from "./support/payments";

// The whole life of an obligation (docs/obligations.md, Lifecycle): amend, credits, reversals, settle_remainder,
// dismiss/restore and duplicate external references, over HTTP on the database of the run.

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

let org: OrgFixture;
let other: OrgFixture;
beforeAll(async () => {
  org = await newOrg("Lifecycle Ltd");
  other = await newOrg("Lifecycle Other");
});

const detail = async (id: string) => {
  const r = await org.api.get(`/obligations/${id}`);
  expect(r.status, r.text).toBe(200);
  return ZObligationDetail.parse(r.body);
};
const eventsOf = (obligationId: string) =>
  db().event.findMany({ where: { organizationId: org.organizationId, obligationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });

describe("action amend", () => {
  it("corrects amount, deadline, parties, label and business context while nothing is settled; event obligation.amended with the changes", async () => {
    const o = await newObligation(org.api, "100000");
    const r = await org.api.post(`/obligations/${o.id}/actions`, {
      action: "amend",
      expected_version: 1,
      amount_minor: "90000",
      deadline: dayOffset(45),
      debtor: { name: "Northwind Traders GmbH", email: "billing@northwind.example" },
      label: "Corrected",
      business_context: { invoice_number: "INV-CORR-1", description: "Typo fixed" },
    });
    expect(r.status, r.text).toBe(200);
    const m = ZMutationResult.parse(r.body);
    expect(m.event_type).toBe("obligation.amended");
    expect(m.obligation).toMatchObject({
      amount_minor: "90000",
      deadline: dayOffset(45),
      debtor: { name: "Northwind Traders GmbH", email: "billing@northwind.example" },
      label: "Corrected",
      business_context: { invoice_number: "INV-CORR-1", description: "Typo fixed" },
      version: 2,
      status: "OBLIGATION_CAPTURED",
    });
    const ev = (await eventsOf(o.id)).find((e) => e.type === "obligation.amended");
    const data = ev?.data as { changes: Record<string, { from: unknown; to: unknown }> };
    expect(data.changes.amount_minor).toEqual({ from: "100000", to: "90000" });
    expect(data.changes.deadline).toEqual({ from: o.deadline, to: dayOffset(45) });
    expect(data.changes.label).toEqual({ from: "", to: "Corrected" });
    expect(Object.keys(data.changes).sort()).toEqual(["amount_minor", "business_context", "deadline", "debtor", "label"]);
    expect((await detail(o.id)).audit_trail.map((e) => e.event_type)).toContain("obligation.amended");
  });

  it("replaces payment terms (validated as at registration) and recalculates them for a new amount", async () => {
    const reg = await org.api.post("/obligations", milestoneBody());
    expect(reg.status, reg.text).toBe(201);
    const o = reg.body.obligation;
    // A new amount alone: the percentage terms are recalculated.
    const a = await org.api.post(`/obligations/${o.id}/actions`, { action: "amend", expected_version: 1, amount_minor: "200000" });
    expect(a.status, a.text).toBe(200);
    expect(a.body.obligation.payment_terms.map((t: { amount_minor: string }) => t.amount_minor)).toEqual(["40000", "60000", "100000"]);
    // New terms that do not add up: 422 payment_terms_mismatch, nothing changed.
    const bad = await org.api.post(`/obligations/${o.id}/actions`, {
      action: "amend",
      expected_version: 2,
      payment_terms: [{ sequence: 1, amount_type: "fixed", fixed_amount_minor: "1000", trigger_type: "immediately", due_rule: "immediately" }],
    });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.body.error.code).toBe("payment_terms_mismatch");
    // A condition this obligation does not have: 422 payment_terms_mismatch.
    const unknown = await org.api.post(`/obligations/${o.id}/actions`, {
      action: "amend",
      expected_version: 2,
      payment_terms: [
        {
          sequence: 1,
          amount_type: "percentage",
          percentage_basis_points: 10000,
          trigger_type: "condition_satisfied",
          condition_key: "nope",
          due_rule: "immediately",
        },
      ],
    });
    expect(unknown.status, unknown.text).toBe(422);
    expect(unknown.body.error.code).toBe("payment_terms_mismatch");
    // Two terms, one naming an existing condition by key.
    const ok = await org.api.post(`/obligations/${o.id}/actions`, {
      action: "amend",
      expected_version: 2,
      payment_terms: [
        { sequence: 1, amount_type: "fixed", fixed_amount_minor: "50000", trigger_type: "immediately", due_rule: "immediately" },
        {
          sequence: 2,
          amount_type: "percentage",
          percentage_basis_points: 7500,
          trigger_type: "condition_satisfied",
          condition_key: "acceptance",
          due_rule: "immediately",
        },
      ],
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.obligation.payment_terms.map((t: { amount_minor: string }) => t.amount_minor)).toEqual(["50000", "150000"]);
    expect(ok.body.obligation.payment_terms[1].condition_key).toBe("acceptance");
    // A new amount that the fixed term no longer fits: 422 payment_terms_mismatch.
    const fixed = await org.api.post(`/obligations/${o.id}/actions`, { action: "amend", expected_version: 3, amount_minor: "40000" });
    expect(fixed.status, fixed.text).toBe(422);
    expect(fixed.body.error.code).toBe("payment_terms_mismatch");
    const ev = (await eventsOf(o.id)).filter((e) => e.type === "obligation.amended").at(-1);
    const changes = (ev?.data as { changes: Record<string, { from: unknown[]; to: unknown[] }> } | undefined)?.changes ?? {};
    expect(changes.payment_terms.from).toHaveLength(3);
    expect(changes.payment_terms.to).toHaveLength(2);
  });

  it("is refused once anything is settled (409 invalid_state), on a stale version (409) and without a field (422)", async () => {
    const o = await newObligation(org.api, "50000");
    const none = await org.api.post(`/obligations/${o.id}/actions`, { action: "amend", expected_version: 1 });
    expect(none.status, none.text).toBe(422);
    const stale = await org.api.post(`/obligations/${o.id}/actions`, { action: "amend", expected_version: 7, label: "x" });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("version_conflict");
    const p = await recordPayment(org.api, { amount_minor: "1000" });
    expect((await allocate(org.api, p.id, { obligation_id: o.id, amount_minor: "1000", expected_version: 1 })).status).toBe(200);
    const r = await org.api.post(`/obligations/${o.id}/actions`, { action: "amend", expected_version: 2, label: "late" });
    expect(r.status, r.text).toBe(409);
    expect(r.body.error.code).toBe("invalid_state");
  });
});

describe("POST /obligations/{id}/credits", () => {
  it("settles like an allocation: part of allocated_minor, status moves, detail lists credits and settled; event obligation.credited", async () => {
    const o = await newObligation(org.api, "100000");
    const p = await recordPayment(org.api, { amount_minor: "98800" });
    const a = await allocate(org.api, p.id, { obligation_id: o.id, amount_minor: "98800", expected_version: 1 });
    expect(a.status, a.text).toBe(200);
    expect(a.body.obligation.status).toBe("PARTIALLY_RECONCILED");
    const r = await org.api.post(`/obligations/${o.id}/credits`, { expected_version: 2, kind: "bank_fee", amount_minor: "1200", reason: "Bank charges" });
    expect(r.status, r.text).toBe(201);
    const c = ZCreditResult.parse(r.body);
    expect(c.credit).toMatchObject({
      obligation_id: o.id,
      kind: "bank_fee",
      amount_minor: "1200",
      reason: "Bank charges",
      reference: "",
      document_id: null,
      reversed_at: null,
      reversal_reason: "",
    });
    expect(c.obligation).toMatchObject({ allocated_minor: "100000", status: "RECONCILED", version: 3 });
    const d = await detail(o.id);
    expect(d.outstanding_minor).toBe("0");
    expect(d.settled).toEqual({ by_payments_minor: "98800", by_credits_minor: "1200" });
    expect(d.credits).toEqual([c.credit]);
    const ev = (await eventsOf(o.id)).find((e) => e.type === "obligation.credited");
    expect((ev?.data as { credit: unknown } | undefined)?.credit).toEqual(c.credit);
  });

  it("never more than outstanding (422 allocation_exceeds_remaining); amount required except for a cancellation; 404 for another organization", async () => {
    const o = await newObligation(org.api, "10000");
    const over = await org.api.post(`/obligations/${o.id}/credits`, { expected_version: 1, kind: "write_off", amount_minor: "10001", reason: "x" });
    expect(over.status, over.text).toBe(422);
    expect(over.body.error.code).toBe("allocation_exceeds_remaining");
    const missing = await org.api.post(`/obligations/${o.id}/credits`, { expected_version: 1, kind: "discount", reason: "x" });
    expect(missing.status).toBe(422);
    expect(missing.body.error.code).toBe("validation_failed");
    const noReason = await org.api.post(`/obligations/${o.id}/credits`, { expected_version: 1, kind: "discount", amount_minor: "1", reason: "" });
    expect(noReason.status).toBe(422);
    const longReason = await org.api.post(`/obligations/${o.id}/credits`, {
      expected_version: 1,
      kind: "discount",
      amount_minor: "1",
      reason: "r".repeat(501),
    });
    expect(longReason.status).toBe(422);
    const badKind = await org.api.post(`/obligations/${o.id}/credits`, { expected_version: 1, kind: "gift", amount_minor: "1", reason: "x" });
    expect(badKind.status).toBe(422);
    const foreign = await other.api.post(`/obligations/${o.id}/credits`, { expected_version: 1, kind: "discount", amount_minor: "1", reason: "x" });
    expect(foreign.status).toBe(404);
    const unknown = await org.api.post(`/obligations/${UNKNOWN}/credits`, { expected_version: 1, kind: "discount", amount_minor: "1", reason: "x" });
    expect(unknown.status).toBe(404);
    const badDoc = await org.api.post(`/obligations/${o.id}/credits`, {
      expected_version: 1,
      kind: "credit_note",
      amount_minor: "1",
      reason: "x",
      document_id: UNKNOWN,
    });
    expect(badDoc.status).toBe(422);
    expect((await detail(o.id)).version).toBe(1);
  });

  it("a cancellation takes the whole outstanding amount; the external reference can then be registered again", async () => {
    const body = legacyBody({ amount_minor: "30000" });
    const reg = await org.api.post("/obligations", body);
    expect(reg.status, reg.text).toBe(201);
    const o = reg.body.obligation;
    const dup = await org.api.post("/obligations", body);
    expect(dup.status, dup.text).toBe(409);
    expect(dup.body.error.code).toBe("duplicate");
    expect(dup.body.error.message).toContain(o.id);
    const part = await org.api.post(`/obligations/${o.id}/credits`, { expected_version: 1, kind: "cancellation", amount_minor: "100", reason: "x" });
    expect(part.status).toBe(422);
    const r = await org.api.post(`/obligations/${o.id}/credits`, { expected_version: 1, kind: "cancellation", reason: "Registered twice" });
    expect(r.status, r.text).toBe(201);
    expect(r.body.credit.amount_minor).toBe("30000");
    expect(r.body.obligation).toMatchObject({ allocated_minor: "30000", status: "RECONCILED" });
    const again = await org.api.post(`/obligations/${o.id}/credits`, { expected_version: 2, kind: "cancellation", reason: "again" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("invalid_state");
    const reg2 = await org.api.post("/obligations", body);
    expect(reg2.status, reg2.text).toBe(201);
  });
});

describe("no silent duplicates", () => {
  it("POST /obligations and POST /invoices: 409 duplicate naming the existing id; a same-key replay is still a replay", async () => {
    const body = legacyBody();
    const key = `dup-${randomUUID()}`;
    const first = await org.api.post("/obligations", body, { idempotencyKey: key });
    expect(first.status, first.text).toBe(201);
    const replay = await org.api.post("/obligations", body, { idempotencyKey: key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const dup = await org.api.post("/obligations", { ...body, amount_minor: "1" });
    expect(dup.status, dup.text).toBe(409);
    expect(dup.body).toEqual({ error: { code: "duplicate", message: expect.stringContaining(first.body.obligation.id) } });
    // Another organization may use the same reference.
    expect((await other.api.post("/obligations", body)).status).toBe(201);

    const number = `INV-${randomUUID().slice(0, 8)}`;
    const plain = { invoice_number: number, amount_minor: "5000", currency: "EUR", due_date: dayOffset(10), recipient: { name: "Acme" } };
    // Without an external_reference (the default { invoice, invoice_number }): not checked.
    expect((await org.api.post("/invoices", plain)).status).toBe(201);
    expect((await org.api.post("/invoices", plain)).status).toBe(201);
    const inv = { ...plain, external_reference: { namespace: "billing", id: number } };
    const i1 = await org.api.post("/invoices", inv);
    expect(i1.status, i1.text).toBe(201);
    const i2 = await org.api.post("/invoices", inv);
    expect(i2.status, i2.text).toBe(409);
    expect(i2.body.error.code).toBe("duplicate");
    expect(i2.body.error.message).toContain(i1.body.invoice.id);
  });

  it("two concurrent registrations of one reference: one 201, one 409 duplicate", async () => {
    const body = legacyBody();
    const rs = await Promise.all([org.api.post("/obligations", body), org.api.post("/obligations", body), org.api.post("/obligations", body)]);
    expect(rs.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const n = await db().obligation.count({ where: { organizationId: org.organizationId, externalNamespace: "erp", externalId: body.external_reference.id } });
    expect(n).toBe(1);
    // The refused ones name the obligation that won.
    const won = rs.find((r) => r.status === 201)?.body.obligation.id;
    for (const r of rs.filter((x) => x.status === 409)) expect(r.body).toEqual({ error: { code: "duplicate", message: expect.stringContaining(won) } });
  });

  it("reversing a cancellation after the reference was registered again: 409 duplicate naming the live one, nothing changed; allowed once that one is cancelled", async () => {
    const body = legacyBody({ amount_minor: "30000" });
    const first = (await org.api.post("/obligations", body)).body.obligation;
    const cancel = await org.api.post(`/obligations/${first.id}/credits`, { expected_version: 1, kind: "cancellation", reason: "Registered twice" });
    expect(cancel.status, cancel.text).toBe(201);
    const second = await org.api.post("/obligations", body);
    expect(second.status, second.text).toBe(201);
    const reverse = (version: number) =>
      org.api.post(`/obligations/${first.id}/credits/${cancel.body.credit.id}/reverse`, { expected_version: version, reason: "Cancelled by mistake" });
    const refused = await reverse(2);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toEqual({ error: { code: "duplicate", message: expect.stringContaining(second.body.obligation.id) } });
    const still = await detail(first.id);
    expect(still).toMatchObject({ version: 2, status: "RECONCILED", allocated_minor: "30000" });
    expect(still.credits.map((c) => c.reversed_at)).toEqual([null]);
    // Once the second is cancelled, the first may hold the reference again (and then refuses a third).
    const cancel2 = await org.api.post(`/obligations/${second.body.obligation.id}/credits`, { expected_version: 1, kind: "cancellation", reason: "Wrong one" });
    expect(cancel2.status, cancel2.text).toBe(201);
    const ok = await reverse(2);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.obligation).toMatchObject({ version: 3, allocated_minor: "0", status: "OBLIGATION_CAPTURED" });
    const third = await org.api.post("/obligations", body);
    expect(third.status, third.text).toBe(409);
    expect(third.body.error.message).toContain(first.id);
  });
});

describe("reversals", () => {
  it("reversing an allocation of a RECONCILED obligation: entry kept with reversed_at and reason, amounts and status recomputed", async () => {
    const o = await newObligation(org.api, "20000");
    const sent = await org.api.post(`/obligations/${o.id}/actions`, { action: "mark_sent", expected_version: 1 });
    expect(sent.status).toBe(200);
    const p = await recordPayment(org.api, { amount_minor: "20000" });
    const a = await allocate(org.api, p.id, { obligation_id: o.id, amount_minor: "20000", expected_version: 2 });
    expect(a.body.obligation.status).toBe("RECONCILED");
    const path = `/payments/${p.id}/allocations/${a.body.allocation.id}/reverse`;
    const r = await org.api.post(path, { expected_version: 3, reason: "Wrong invoice" });
    expect(r.status, r.text).toBe(200);
    const res = ZPaymentAllocationResult.parse(r.body);
    expect(res.event_type).toBe("payment.allocation_reversed");
    expect(res.obligation).toMatchObject({ allocated_minor: "0", status: "PAYMENT_REQUESTED", version: 4 });
    expect(res.allocation).toMatchObject({ id: a.body.allocation.id, reversal_reason: "Wrong invoice", reversed_at: expect.any(String) });
    expect(res.payment).toMatchObject({ allocated_minor: "0", unallocated_minor: "20000", status: "unallocated" });
    expect(res.payment.allocations).toHaveLength(1);
    expect((await org.api.get(`/payments/${p.id}`)).body).toEqual(res.payment);
    // Twice: 409 invalid_state; unknown allocation: 404; another organization: 404.
    const twice = await org.api.post(path, { expected_version: 4, reason: "again" });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe("invalid_state");
    expect((await org.api.post(`/payments/${p.id}/allocations/${UNKNOWN}/reverse`, { expected_version: 4, reason: "x" })).status).toBe(404);
    expect((await other.api.post(path, { expected_version: 4, reason: "x" })).status).toBe(404);
    // The payment can be allocated again, to the right obligation.
    const o2 = await newObligation(org.api, "20000");
    expect((await allocate(org.api, p.id, { obligation_id: o2.id, amount_minor: "20000", expected_version: 1 })).status).toBe(200);
    const ev = (await eventsOf(o.id)).map((e) => e.type);
    expect(ev.at(-1)).toBe("payment.allocation_reversed");
  });

  it("the status without the reversed entry: PARTIALLY_RECONCILED, PAYMENT_CLAIMED or OBLIGATION_CAPTURED", async () => {
    const o = await newObligation(org.api, "20000");
    const p = await recordPayment(org.api, { amount_minor: "15000" });
    const a1 = await allocate(org.api, p.id, { obligation_id: o.id, amount_minor: "5000", expected_version: 1 });
    const a2 = await allocate(org.api, p.id, { obligation_id: o.id, amount_minor: "5000", expected_version: 2 });
    expect(a2.status).toBe(200);
    const r1 = await org.api.post(`/payments/${p.id}/allocations/${a1.body.allocation.id}/reverse`, { expected_version: 3, reason: "dup" });
    expect(r1.body.obligation).toMatchObject({ allocated_minor: "5000", status: "PARTIALLY_RECONCILED" });
    const r2 = await org.api.post(`/payments/${p.id}/allocations/${a2.body.allocation.id}/reverse`, { expected_version: 4, reason: "dup" });
    expect(r2.body.obligation).toMatchObject({ allocated_minor: "0", status: "OBLIGATION_CAPTURED" });
    // A reported payment: back to PAYMENT_CLAIMED.
    await db().obligation.updateMany({ where: { id: o.id }, data: { reportedPaymentDate: new Date(`${dayOffset(-1)}T00:00:00Z`) } });
    const a3 = await allocate(org.api, p.id, { obligation_id: o.id, amount_minor: "5000", expected_version: 5 });
    const r3 = await org.api.post(`/payments/${p.id}/allocations/${a3.body.allocation.id}/reverse`, { expected_version: 6, reason: "dup" });
    expect(r3.body.obligation).toMatchObject({ allocated_minor: "0", status: "PAYMENT_CLAIMED" });
  });

  it("reversing a credit: kept with reversed_at, amounts and status recomputed, a cancellation un-cancels", async () => {
    const body = legacyBody({ amount_minor: "7000" });
    const o = (await org.api.post("/obligations", body)).body.obligation;
    const c = await org.api.post(`/obligations/${o.id}/credits`, { expected_version: 1, kind: "cancellation", reason: "duplicate" });
    expect(c.status, c.text).toBe(201);
    const path = `/obligations/${o.id}/credits/${c.body.credit.id}/reverse`;
    const r = await org.api.post(path, { expected_version: 2, reason: "was not a duplicate" });
    expect(r.status, r.text).toBe(200);
    const res = ZCreditResult.parse(r.body);
    expect(res.credit).toMatchObject({ reversal_reason: "was not a duplicate", reversed_at: expect.any(String) });
    expect(res.obligation).toMatchObject({ allocated_minor: "0", status: "OBLIGATION_CAPTURED", version: 3 });
    const d = await detail(o.id);
    expect(d.settled).toEqual({ by_payments_minor: "0", by_credits_minor: "0" });
    expect(d.credits[0].reversed_at).not.toBeNull();
    // Not cancelled any more: the reference is taken again.
    expect((await org.api.post("/obligations", body)).status).toBe(409);
    const twice = await org.api.post(path, { expected_version: 3, reason: "again" });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe("invalid_state");
    expect((await org.api.post(`/obligations/${o.id}/credits/${UNKNOWN}/reverse`, { expected_version: 3, reason: "x" })).status).toBe(404);
    expect((await other.api.post(path, { expected_version: 3, reason: "x" })).status).toBe(404);
    expect((await eventsOf(o.id)).map((e) => e.type)).toEqual(["obligation.registered", "obligation.credited", "obligation.credit_reversed"]);
  });
});

describe("settle_remainder", () => {
  it("POST /payments/{id}/allocations: the short rest is credited in the same transaction", async () => {
    const o = await newObligation(org.api, "100000");
    const p = await recordPayment(org.api, { amount_minor: "98800" });
    const r = await allocate(org.api, p.id, {
      obligation_id: o.id,
      amount_minor: "98800",
      expected_version: 1,
      settle_remainder: { kind: "bank_fee", reason: "€12 charges" },
    });
    expect(r.status, r.text).toBe(200);
    const res = ZPaymentAllocationResult.parse(r.body);
    expect(res.obligation).toMatchObject({ allocated_minor: "100000", status: "RECONCILED", version: 3 });
    expect(res.credit).toMatchObject({ kind: "bank_fee", amount_minor: "1200", reason: "€12 charges" });
    expect((await eventsOf(o.id)).map((e) => e.type)).toEqual(["obligation.registered", "payment.allocated", "obligation.credited"]);
    // Nothing left: nothing credited.
    const o2 = await newObligation(org.api, "500");
    const p2 = await recordPayment(org.api, { amount_minor: "500" });
    const r2 = await allocate(org.api, p2.id, {
      obligation_id: o2.id,
      amount_minor: "500",
      expected_version: 1,
      settle_remainder: { kind: "discount", reason: "x" },
    });
    expect(r2.status, r2.text).toBe(200);
    expect(r2.body.credit).toBeUndefined();
    // A bad kind: 422, nothing allocated.
    const bad = await allocate(org.api, p.id, {
      obligation_id: o2.id,
      amount_minor: "1",
      expected_version: 2,
      settle_remainder: { kind: "cancellation", reason: "x" },
    });
    expect(bad.status).toBe(422);
  });

  it("accepting a suggestion with settle_remainder credits each obligation's rest", async () => {
    const o = await newObligation(org.api, "250000");
    const ref = (await org.api.get(`/obligations/${o.id}`)).body.payment_reference;
    const p = await recordPayment(org.api, { amount_minor: "249000", reference: ref });
    const s = await org.api.get(`/payments/${p.id}/suggestions`);
    expect(s.status, s.text).toBe(200);
    const sug = s.body.items[0];
    expect(sug.allocations[0].obligation_id).toBe(o.id);
    const r = await org.api.post(`/payments/${p.id}/suggestions/${sug.id}/accept`, { settle_remainder: { kind: "write_off", reason: "Not worth chasing" } });
    expect(r.status, r.text).toBe(200);
    const res = ZAcceptSuggestionResult.parse(r.body);
    expect(res.obligations[0]).toMatchObject({ allocated_minor: "250000", status: "RECONCILED" });
    expect(res.credits).toHaveLength(1);
    expect(res.credits?.[0]).toMatchObject({ kind: "write_off", amount_minor: "1000" });
  });
});

describe("dismiss and restore", () => {
  it("takes a payment out of the unallocated queue and puts it back; events payment.dismissed, payment.restored", async () => {
    const p = await recordPayment(org.api, { amount_minor: "1500", reference: "ACCOUNT CHARGES" });
    const r = await org.api.post(`/payments/${p.id}/dismiss`, { reason: "bank_fee", note: "monthly fee" });
    expect(r.status, r.text).toBe(200);
    const d = ZPayment.parse(r.body);
    expect(d).toMatchObject({ status: "dismissed", dismissal: { reason: "bank_fee", note: "monthly fee", dismissed_at: expect.any(String) } });
    expect((await org.api.get(`/payments/${p.id}`)).body).toEqual(r.body);
    expect((await org.api.get(`/payments/${p.id}/suggestions`)).body.items).toEqual([]);
    const o = await newObligation(org.api, "1500");
    const a = await allocate(org.api, p.id, { obligation_id: o.id, amount_minor: "1500", expected_version: 1 });
    expect(a.status).toBe(409);
    expect(a.body.error.code).toBe("invalid_state");
    const twice = await org.api.post(`/payments/${p.id}/dismiss`, { reason: "other" });
    expect(twice.status).toBe(409);
    const badReason = await org.api.post(`/payments/${p.id}/dismiss`, { reason: "whatever" });
    expect(badReason.status).toBe(422);
    const back = await org.api.post(`/payments/${p.id}/restore`);
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ status: "unallocated", dismissal: null });
    expect((await org.api.post(`/payments/${p.id}/restore`)).status).toBe(409);
    expect((await other.api.post(`/payments/${p.id}/dismiss`, { reason: "other" })).status).toBe(404);
    const types = (await db().event.findMany({ where: { organizationId: org.organizationId, paymentId: p.id }, orderBy: { createdAt: "asc" } })).map(
      (e) => e.type,
    );
    expect(types).toEqual(["payment.recorded", "payment.dismissed", "payment.restored"]);
  });

  it("only with nothing allocated (409 invalid_state)", async () => {
    const o = await newObligation(org.api, "3000");
    const p = await recordPayment(org.api, { amount_minor: "3000" });
    expect((await allocate(org.api, p.id, { obligation_id: o.id, amount_minor: "1000", expected_version: 1 })).status).toBe(200);
    const r = await org.api.post(`/payments/${p.id}/dismiss`, { reason: "not_receivable" });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe("invalid_state");
    const g = await org.api.get(`/payments/${p.id}`);
    expect(g.body.status).toBe("partially_allocated");
  });
});

describe("figures and dashboard reads after credits", () => {
  it("owed to you and aging count only what is outstanding after credits; a cancelled obligation leaves them", async () => {
    const fig = await newOrg("Lifecycle Figures");
    const a = await newObligation(fig.api, "10000", "CHF");
    const b = await newObligation(fig.api, "5000", "CHF");
    expect((await fig.api.post(`/obligations/${a.id}/credits`, { expected_version: 1, kind: "discount", amount_minor: "2500", reason: "early" })).status).toBe(
      201,
    );
    expect((await fig.api.post(`/obligations/${b.id}/credits`, { expected_version: 1, kind: "cancellation", reason: "duplicate" })).status).toBe(201);
    const s = await summarizeObligations(db(), { organizationId: fig.organizationId });
    const owed = s.outstanding.find((t) => t.organization_role === "creditor" && t.currency === "CHF");
    expect(owed).toMatchObject({ count: 1, outstanding_minor: "7500" });
    const aging = await ageReceivables(db(), { organizationId: fig.organizationId });
    expect(aging.find((x) => x.currency === "CHF")?.total_minor).toBe("7500");
  });

  it("the payments list filters by text, amount and status; the allocation picker finds obligations by reference, number, payer, amount", async () => {
    const f = await newOrg("Lifecycle Lists");
    const p1 = await recordPayment(f.api, { amount_minor: "12345", payer_name: "Umbrella Corp", reference: "SEPA 77" });
    const p2 = await recordPayment(f.api, { amount_minor: "500", payer_name: "Bank", reference: "CHARGES" });
    expect((await f.api.post(`/payments/${p2.id}/dismiss`, { reason: "bank_fee" })).status).toBe(200);
    const ids = async (filter: { search?: string; status?: string }) =>
      (await listPayments(db(), { organizationId: f.organizationId, query: { limit: 50, offset: 0 }, filter })).items.map((p) => p.id);
    expect(await ids({ search: "umbrella" })).toEqual([p1.id]);
    expect(await ids({ search: "123.45" })).toEqual([p1.id]);
    expect(await ids({ search: "50%" })).toEqual([]);
    expect(await ids({ status: "dismissed" })).toEqual([p2.id]);
    expect(await ids({ status: "unallocated" })).toEqual([p1.id]);
    expect(await countPayments(db(), { organizationId: f.organizationId, filter: { status: "dismissed" } })).toBe(1);
    // The overview's "payments to allocate" leaves the dismissed one out.
    expect(await summarizeUnallocatedPayments(db(), { organizationId: f.organizationId })).toEqual([{ currency: "EUR", count: 1, unallocated_minor: "12345" }]);

    const o = await newObligation(f.api, "98765");
    const detailO = (await f.api.get(`/obligations/${o.id}`)).body;
    await newObligation(f.api, "111");
    const find = async (search: string) => (await listOpenObligations(db(), { organizationId: f.organizationId, currency: "EUR", search })).map((x) => x.id);
    expect(await find(o.reference.toLowerCase())).toEqual([o.id]);
    expect(await find(detailO.business_context.invoice_number)).toEqual([o.id]);
    expect(await find("987.65")).toEqual([o.id]);
    expect(await find(detailO.payment_reference.replace(/(.{4})/g, "$1 ").trim())).toEqual([o.id]);
    expect((await find("northwind")).length).toBe(2);
  });
});
