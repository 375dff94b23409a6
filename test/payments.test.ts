import { randomUUID } from "node:crypto";
import pg from "pg";
import { untilSomeoneWaits } from "./support/lock-wait";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db/client";
import { ZObligationDetail } from "@/lib/schemas/obligations";
import { ZPayment, ZPaymentAllocationResult, ZPaymentList } from "@/lib/schemas/payments";
import { Api, backend, baseUrl } from "./support/api";
import { apiKeyWith, newOrg, signedIn, userWith, type OrgFixture } from "./support/fixtures";
import { createInvoice, dayOffset } from "./support/obligations";
import { allocate, newObligation, paymentBody, recordPayment } from "./support/payments";

// Payments and allocations: every success and error path over HTTP (the concurrency and
// property tests are in payments-concurrency.test.ts).

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

describe("POST /payments", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Payments Ltd");
    other = await newOrg("Other Payments Tenant");
  });

  it('records a minimal payment: unset strings are "", external_reference null, nothing allocated; event payment.recorded', async () => {
    const r = await org.api.post("/payments", { amount_minor: "125000", currency: "EUR", received_on: "2026-11-14" });
    expect(r.status, r.text).toBe(201);
    const p = ZPayment.parse(r.body);
    expect(p).toEqual({
      id: expect.any(String),
      organization_id: org.organizationId,
      amount_minor: "125000",
      currency: "EUR",
      direction: "incoming",
      received_on: "2026-11-14",
      payer_name: "",
      reference: "",
      external_reference: null,
      note: "",
      allocated_minor: "0",
      unallocated_minor: "125000",
      allocations: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      status: "unallocated",
      dismissal: null,
    });
    expect(p.created_at).toBe(p.updated_at);
    expect(Math.abs(Date.parse(p.created_at) - Date.now())).toBeLessThan(60_000);
    // The answer is built from the values written, not re-read: what is stored reads back the same.
    expect((await org.api.get(`/payments/${p.id}`)).body).toEqual(r.body);
    const events = await db().event.findMany({ where: { organizationId: org.organizationId, paymentId: p.id } });
    expect(events.map((e) => e.type)).toEqual(["payment.recorded"]);
    expect(events[0].obligationId).toBeNull();
    expect(events[0].data).toEqual({ payment: p });
    expect(events[0].actorType).toBe("api_key");
  });

  it("records every optional field and shows it in GET /payments/{id}", async () => {
    const body = {
      amount_minor: "9223372036854775807",
      currency: "JPY",
      received_on: "2026-02-28",
      payer_name: "Northwind Traders",
      reference: "Remittance INV-42",
      external_reference: { namespace: "bank-feed", id: `TX-${randomUUID()}` },
      note: "n".repeat(4000),
    };
    const r = await org.api.post("/payments", body);
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ ...body, allocated_minor: "0", unallocated_minor: "9223372036854775807" });
    const g = await org.api.get(`/payments/${r.body.id}`);
    expect(g.status).toBe(200);
    expect(g.body).toEqual(r.body);
  });

  it("validates the body strictly (422 validation_failed naming the field)", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...paymentBody(), extra: 1 }, "body.extra"],
      [{ ...paymentBody(), amount_minor: undefined }, "body.amount_minor"],
      [{ ...paymentBody(), amount_minor: "0" }, "body.amount_minor"],
      [{ ...paymentBody(), amount_minor: "-5" }, "body.amount_minor"],
      [{ ...paymentBody(), amount_minor: "1.50" }, "body.amount_minor"],
      [{ ...paymentBody(), amount_minor: 100 }, "body.amount_minor"],
      [{ ...paymentBody(), amount_minor: "9223372036854775808" }, "body.amount_minor"],
      [{ ...paymentBody(), currency: "XXX" }, "body.currency"],
      [{ ...paymentBody(), currency: undefined }, "body.currency"],
      [{ ...paymentBody(), received_on: "2026-13-01" }, "body.received_on"],
      [{ ...paymentBody(), received_on: "14/11/2026" }, "body.received_on"],
      [{ ...paymentBody(), received_on: undefined }, "body.received_on"],
      [{ ...paymentBody(), payer_name: 7 }, "body.payer_name"],
      [{ ...paymentBody(), note: "x".repeat(4001) }, "body.note"],
      [{ ...paymentBody(), external_reference: { namespace: "bank" } }, "body.external_reference.id"],
      [{ ...paymentBody(), external_reference: { namespace: "bank", id: "" } }, "body.external_reference.id"],
      [{ ...paymentBody(), external_reference: { namespace: "bank", id: "1", x: 1 } }, "body.external_reference.x"],
      [{ ...paymentBody(), external_reference: null }, "body.external_reference"],
    ];
    const before = (await org.api.get("/payments?limit=100")).body.items.length;
    for (const [body, path] of cases) {
      const r = await org.api.post("/payments", body);
      expect(r.status, `${JSON.stringify(body).slice(0, 200)} ${r.text}`).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain(path);
    }
    const bad = await org.api.post("/payments", "{not json");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("malformed_request");
    expect((await org.api.get("/payments?limit=100")).body.items.length).toBe(before);
  });

  it("requires an Idempotency-Key; a retry with the same key replays the 201 byte for byte; a different body is 422", async () => {
    const none = await org.api.post("/payments", paymentBody(), { idempotencyKey: null });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe("idempotency_key_required");
    const key = `pay-${randomUUID()}`;
    const ext = { namespace: "psp", id: `ch_${randomUUID()}` };
    const body = paymentBody({ external_reference: ext });
    const first = await org.api.post("/payments", body, { idempotencyKey: key });
    expect(first.status).toBe(201);
    const again = await org.api.post("/payments", body, { idempotencyKey: key });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    const changed = await org.api.post("/payments", { ...body, note: "changed" }, { idempotencyKey: key });
    expect(changed.status).toBe(422);
    expect(changed.body.error.code).toBe("idempotency_key_reused");
    expect(await db().payment.count({ where: { organizationId: org.organizationId, externalId: ext.id } })).toBe(1);
  });

  it("the same external_reference with another key is 409 duplicate naming the existing payment; other ids, namespaces and tenants are fine", async () => {
    const ext = { namespace: "bank-feed", id: `TX-${randomUUID()}` };
    const first = await recordPayment(org.api, { external_reference: ext });
    const dup = await org.api.post("/payments", paymentBody({ external_reference: ext, amount_minor: "5" }));
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: { code: "duplicate", message: expect.stringContaining(first.id) } });
    expect(dup.body.error.message).toContain(`${ext.namespace}/${ext.id}`);
    expect((await org.api.post("/payments", paymentBody({ external_reference: { ...ext, id: `${ext.id}-2` } }))).status).toBe(201);
    expect((await org.api.post("/payments", paymentBody({ external_reference: { ...ext, namespace: "other-bank" } }))).status).toBe(201);
    expect((await other.api.post("/payments", paymentBody({ external_reference: ext }))).status).toBe(201);
    // payments without an external reference are never duplicates
    expect((await org.api.post("/payments", paymentBody())).status).toBe(201);
    expect((await org.api.post("/payments", paymentBody())).status).toBe(201);
    expect(await db().payment.count({ where: { organizationId: org.organizationId, externalNamespace: ext.namespace, externalId: ext.id } })).toBe(1);
  });

  it("20 concurrent recordings of one external_reference with different keys: exactly one 201, the rest 409 duplicate naming it", async () => {
    const ext = { namespace: "bank-feed", id: `TX-${randomUUID()}` };
    const rs = await Promise.all(Array.from({ length: 20 }, () => org.api.post("/payments", paymentBody({ external_reference: ext }))));
    const created = rs.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    const refused = rs.filter((r) => r.status !== 201);
    for (const r of refused) {
      expect(r.status, r.text).toBe(409);
      expect(r.body.error.code).toBe("duplicate");
      expect(r.body.error.message).toContain(created[0].body.id);
    }
    expect(await db().event.count({ where: { organizationId: org.organizationId, paymentId: created[0].body.id } })).toBe(1);
  });
});

describe("GET /payments and GET /payments/{id}", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  const ids: string[] = [];
  beforeAll(async () => {
    org = await newOrg("Listing Payments Ltd");
    other = await newOrg("Listing Other");
    for (let i = 0; i < 7; i++) ids.push((await recordPayment(org.api, { amount_minor: String(1000 + i) })).id);
    await recordPayment(other.api);
  });

  it("lists the organization's payments newest first in the envelope; pages are stable and complete", async () => {
    const all = await org.api.get("/payments");
    expect(all.status).toBe(200);
    const list = ZPaymentList.parse(all.body);
    expect(list.limit).toBe(50);
    expect(list.offset).toBe(0);
    expect(list.items.map((p) => p.id)).toEqual([...ids].reverse());
    for (const p of list.items) expect(p.organization_id).toBe(org.organizationId);
    const paged: string[] = [];
    for (let offset = 0; offset < 9; offset += 3) {
      const r = await org.api.get(`/payments?limit=3&offset=${offset}`);
      expect(r.status).toBe(200);
      expect(r.body.limit).toBe(3);
      expect(r.body.offset).toBe(offset);
      paged.push(...r.body.items.map((p: any) => p.id));
    }
    expect(paged).toEqual(list.items.map((p) => p.id));
    expect((await org.api.get("/payments?offset=100")).body.items).toEqual([]);
  });

  it("validates limit and offset (422)", async () => {
    for (const q of ["limit=0", "limit=101", "limit=abc", "offset=-1", "limit=1.5", "unknown=1"]) {
      const r = await org.api.get(`/payments?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
    }
  });

  it("GET /payments/{id}: 404 for unknown, malformed or another organization's id (same message)", async () => {
    const ok = await org.api.get(`/payments/${ids[0]}`);
    expect(ok.status).toBe(200);
    expect(ZPayment.parse(ok.body).amount_minor).toBe("1000");
    const foreign = await other.api.get(`/payments/${ids[0]}`);
    const unknown = await org.api.get(`/payments/${UNKNOWN}`);
    const malformed = await org.api.get(`/payments/not-a-uuid`);
    for (const r of [foreign, unknown, malformed]) {
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    expect(foreign.body.error.message).toBe(unknown.body.error.message);
  });
});

describe("POST /payments/{id}/allocations", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Allocations Ltd");
    other = await newOrg("Allocations Other");
  });

  const obligationDetail = async (id: string, o: OrgFixture = org) => {
    const r = await o.api.get(`/obligations/${id}`);
    expect(r.status).toBe(200);
    return ZObligationDetail.parse(r.body);
  };
  const paymentView = async (id: string, o: OrgFixture = org) => ZPayment.parse((await o.api.get(`/payments/${id}`)).body);

  it("partial then full allocation: PARTIALLY_RECONCILED -> RECONCILED, version + 1 each, both sides show what is left; event payment.allocated", async () => {
    const pay = await recordPayment(org.api, { amount_minor: "100000" });
    const obl = await newObligation(org.api, "60000");
    expect(obl).toMatchObject({ status: "OBLIGATION_CAPTURED", version: 1, allocated_minor: "0" });
    expect((await obligationDetail(obl.id)).outstanding_minor).toBe("60000");

    const r1 = await allocate(org.api, pay.id, { obligation_id: obl.id, amount_minor: "25000", expected_version: 1 });
    expect(r1.status, r1.text).toBe(200);
    const a1 = ZPaymentAllocationResult.parse(r1.body);
    expect(a1.event_type).toBe("payment.allocated");
    expect(a1.obligation).toMatchObject({ id: obl.id, allocated_minor: "25000", status: "PARTIALLY_RECONCILED", version: 2 });
    expect(a1.invoice).toMatchObject({ id: obl.id, allocated_minor: "25000", status: "PARTIALLY_RECONCILED", version: 2 });
    expect(a1.payment).toMatchObject({ id: pay.id, allocated_minor: "25000", unallocated_minor: "75000" });
    expect(a1.allocation).toEqual({
      id: expect.any(String),
      payment_id: pay.id,
      obligation_id: obl.id,
      obligation_reference: obl.reference,
      amount_minor: "25000",
      created_at: expect.any(String),
      reversed_at: null,
      reversal_reason: "",
    });
    const { payment_id: _pid, ...item } = a1.allocation;
    expect(a1.payment.allocations).toEqual([item]);
    expect(Date.parse(a1.payment.updated_at)).toBeGreaterThan(Date.parse(pay.updated_at) - 1);

    const d1 = await obligationDetail(obl.id);
    expect(d1).toMatchObject({ allocated_minor: "25000", outstanding_minor: "35000", status: "PARTIALLY_RECONCILED", version: 2 });
    const ev = d1.audit_trail.find((e) => e.id === a1.operation_id)!;
    expect(ev.event_type).toBe("payment.allocated");
    expect(ev.detail).toMatchObject({ payment_id: pay.id, allocation_id: a1.allocation.id, amount_minor: "25000" });
    expect(await paymentView(pay.id)).toEqual(a1.payment);

    const r2 = await allocate(org.api, pay.id, { obligation_id: obl.id, amount_minor: "35000", expected_version: 2 });
    expect(r2.status, r2.text).toBe(200);
    const a2 = ZPaymentAllocationResult.parse(r2.body);
    expect(a2.obligation).toMatchObject({ allocated_minor: "60000", status: "RECONCILED", version: 3 });
    expect(a2.payment).toMatchObject({ allocated_minor: "60000", unallocated_minor: "40000" });
    expect(a2.payment.allocations.map((a) => a.amount_minor)).toEqual(["25000", "35000"]);
    // built from the locked read plus the new allocation, not read again: the stored payment reads back the same
    expect(await paymentView(pay.id)).toEqual(a2.payment);
    expect((await obligationDetail(obl.id)).outstanding_minor).toBe("0");

    // RECONCILED never moves back: nothing is outstanding, so any further allocation is refused
    const r3 = await allocate(org.api, pay.id, { obligation_id: obl.id, amount_minor: "1", expected_version: 3 });
    expect(r3.status).toBe(422);
    expect(r3.body.error.code).toBe("allocation_exceeds_remaining");
    const d3 = await obligationDetail(obl.id);
    expect(d3).toMatchObject({ status: "RECONCILED", version: 3, allocated_minor: "60000" });

    // the event rows: linked to both, with data { obligation, payment } as of the change
    const events = await db().event.findMany({ where: { organizationId: org.organizationId, paymentId: pay.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.type)).toEqual(["payment.recorded", "payment.allocated", "payment.allocated"]);
    const data = events[2].data as any;
    expect(events[2].id).toBe(a2.operation_id);
    expect(events[2].obligationId).toBe(obl.id);
    expect(data.obligation).toEqual(a2.obligation);
    expect(data.payment).toEqual(a2.payment);
  });

  it("one payment over several obligations; the payment list shows the allocation projections", async () => {
    const pay = await recordPayment(org.api, { amount_minor: "900" });
    const o1 = await newObligation(org.api, "300");
    const o2 = await newObligation(org.api, "1000");
    expect((await allocate(org.api, pay.id, { obligation_id: o1.id, amount_minor: "300", expected_version: 1 })).status).toBe(200);
    const r = await allocate(org.api, pay.id, { obligation_id: o2.id, amount_minor: "600", expected_version: 1 });
    expect(r.status).toBe(200);
    expect(r.body.payment).toMatchObject({ allocated_minor: "900", unallocated_minor: "0" });
    expect(r.body.obligation).toMatchObject({ allocated_minor: "600", status: "PARTIALLY_RECONCILED" });
    const listed = (await org.api.get("/payments?limit=100")).body.items.find((p: any) => p.id === pay.id);
    expect(listed.allocations.map((a: any) => [a.obligation_id, a.obligation_reference, a.amount_minor])).toEqual([
      [o1.id, o1.reference, "300"],
      [o2.id, o2.reference, "600"],
    ]);
    expect(listed).toEqual(await paymentView(pay.id));
    const more = await allocate(org.api, pay.id, { obligation_id: o2.id, amount_minor: "1", expected_version: 2 });
    expect(more.status).toBe(422);
    expect(more.body.error.code).toBe("allocation_exceeds_remaining");
    expect(more.body.error.message).toContain("payment");
  });

  it("moves any earlier state straight to (PARTIALLY_)RECONCILED: from PAYMENT_REQUESTED to RECONCILED in one allocation", async () => {
    const pay = await recordPayment(org.api, { amount_minor: "5000" });
    const obl = await newObligation(org.api, "5000");
    const sent = await org.api.post(`/obligations/${obl.id}/actions`, { action: "mark_sent", expected_version: 1 });
    expect(sent.body.invoice.status).toBe("PAYMENT_REQUESTED");
    const r = await allocate(org.api, pay.id, { obligation_id: obl.id, amount_minor: "5000", expected_version: 2 });
    expect(r.status, r.text).toBe(200);
    expect(r.body.obligation).toMatchObject({ status: "RECONCILED", version: 3, allocated_minor: "5000" });
    // issuer actions that would change state are refused afterwards; RECONCILED stays
    const again = await org.api.post(`/obligations/${obl.id}/actions`, { action: "mark_sent", expected_version: 3 });
    expect(again.status).toBe(409);
    expect((await obligationDetail(obl.id)).status).toBe("RECONCILED");
  });

  it("works for invoices too: GET /invoices/{id} shows allocated_minor and outstanding_minor", async () => {
    const inv = await createInvoice(org.api, { amount_minor: "99000", currency: "USD" });
    const pay = await recordPayment(org.api, { amount_minor: "50000", currency: "USD" });
    const r = await allocate(org.api, pay.id, { obligation_id: inv.invoice.id, amount_minor: "50000", expected_version: 1 });
    expect(r.status, r.text).toBe(200);
    const d = await org.api.get(`/invoices/${inv.invoice.id}`);
    expect(d.body).toMatchObject({ allocated_minor: "50000", outstanding_minor: "49000", status: "PARTIALLY_RECONCILED", version: 2 });
  });

  it("422 allocation_exceeds_remaining: larger than the payment's unallocated or the obligation's outstanding amount; nothing changes", async () => {
    const pay = await recordPayment(org.api, { amount_minor: "1000" });
    const big = await newObligation(org.api, "5000");
    const small = await newObligation(org.api, "400");
    const overPayment = await allocate(org.api, pay.id, { obligation_id: big.id, amount_minor: "1001", expected_version: 1 });
    expect(overPayment.status).toBe(422);
    expect(overPayment.body).toEqual({ error: { code: "allocation_exceeds_remaining", message: expect.stringContaining("payment") } });
    const overObligation = await allocate(org.api, pay.id, { obligation_id: small.id, amount_minor: "401", expected_version: 1 });
    expect(overObligation.status).toBe(422);
    expect(overObligation.body).toEqual({ error: { code: "allocation_exceeds_remaining", message: expect.stringContaining("obligation") } });
    expect(await paymentView(pay.id)).toMatchObject({ allocated_minor: "0", unallocated_minor: "1000", allocations: [] });
    for (const o of [big, small]) expect(await obligationDetail(o.id)).toMatchObject({ allocated_minor: "0", version: 1, status: "OBLIGATION_CAPTURED" });
    // exactly the remaining amount is fine on both sides
    expect((await allocate(org.api, pay.id, { obligation_id: small.id, amount_minor: "400", expected_version: 1 })).status).toBe(200);
    expect((await allocate(org.api, pay.id, { obligation_id: big.id, amount_minor: "600", expected_version: 1 })).status).toBe(200);
    expect(await paymentView(pay.id)).toMatchObject({ allocated_minor: "1000", unallocated_minor: "0" });
  });

  it("422 currency_mismatch between payment and obligation; checked before the amounts", async () => {
    const pay = await recordPayment(org.api, { amount_minor: "1000", currency: "GBP" });
    const obl = await newObligation(org.api, "500", "EUR");
    const r = await allocate(org.api, pay.id, { obligation_id: obl.id, amount_minor: "999999", expected_version: 1 });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ error: { code: "currency_mismatch", message: expect.stringContaining("GBP") } });
    expect(await obligationDetail(obl.id)).toMatchObject({ version: 1, allocated_minor: "0" });
    expect((await paymentView(pay.id)).allocated_minor).toBe("0");
  });

  it("409 version_conflict for a stale or future expected_version; nothing changes", async () => {
    const pay = await recordPayment(org.api, { amount_minor: "1000" });
    const obl = await newObligation(org.api, "1000");
    await org.api.post(`/obligations/${obl.id}/actions`, { action: "post_message", expected_version: 1, message: "hello" });
    const before = await obligationDetail(obl.id);
    for (const v of [1, 3, 99]) {
      const r = await allocate(org.api, pay.id, { obligation_id: obl.id, amount_minor: "10", expected_version: v });
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe("version_conflict");
    }
    expect(await obligationDetail(obl.id)).toEqual(before);
    expect(await paymentView(pay.id)).toMatchObject({ allocated_minor: "0", allocations: [] });
    expect((await allocate(org.api, pay.id, { obligation_id: obl.id, amount_minor: "10", expected_version: 2 })).status).toBe(200);
  });

  it("404 for an unknown, malformed or foreign payment, and for an unknown or foreign obligation_id (never revealing existence)", async () => {
    const pay = await recordPayment(org.api, { amount_minor: "1000" });
    const obl = await newObligation(org.api, "1000");
    const foreignPay = await recordPayment(other.api, { amount_minor: "1000" });
    const foreignObl = await newObligation(other.api, "1000");
    const body = (obligation_id: string) => ({ obligation_id, amount_minor: "10", expected_version: 1 });
    const cases = [
      await allocate(org.api, UNKNOWN, body(obl.id)),
      await allocate(org.api, foreignPay.id, body(obl.id)),
      await org.api.post(`/payments/nope/allocations`, body(obl.id)),
      await allocate(org.api, pay.id, body(UNKNOWN)),
      await allocate(org.api, pay.id, body(foreignObl.id)),
      await allocate(other.api, pay.id, body(foreignObl.id)),
    ];
    for (const r of cases) {
      expect(r.status, r.text).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    // a foreign obligation reads exactly like an unknown one
    expect(cases[4].body.error.message).toBe(cases[3].body.error.message);
    expect(cases[1].body.error.message).toBe(cases[0].body.error.message);
    expect(await obligationDetail(foreignObl.id, other)).toMatchObject({ version: 1, allocated_minor: "0" });
    expect(await paymentView(foreignPay.id, other)).toMatchObject({ allocated_minor: "0" });
    expect(await paymentView(pay.id)).toMatchObject({ allocated_minor: "0" });
    expect(await db().paymentAllocation.count({ where: { paymentId: { in: [pay.id, foreignPay.id] } } })).toBe(0);
  });

  it("validates the AllocatePayment body strictly", async () => {
    const pay = await recordPayment(org.api, { amount_minor: "1000" });
    const obl = await newObligation(org.api, "1000");
    const ok = { obligation_id: obl.id, amount_minor: "10", expected_version: 1 };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, obligation_id: undefined }, "body.obligation_id"],
      [{ ...ok, obligation_id: "123" }, "body.obligation_id"],
      [{ ...ok, amount_minor: undefined }, "body.amount_minor"],
      [{ ...ok, amount_minor: "0" }, "body.amount_minor"],
      [{ ...ok, amount_minor: 10 }, "body.amount_minor"],
      [{ ...ok, amount_minor: "-10" }, "body.amount_minor"],
      [{ ...ok, expected_version: undefined }, "body.expected_version"],
      [{ ...ok, expected_version: 0 }, "body.expected_version"],
      [{ ...ok, expected_version: "1" }, "body.expected_version"],
      [{ ...ok, currency: "EUR" }, "body.currency"],
    ];
    for (const [body, path] of cases) {
      const r = await allocate(org.api, pay.id, body);
      expect(r.status, `${JSON.stringify(body)} ${r.text}`).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain(path);
    }
    expect((await obligationDetail(obl.id)).version).toBe(1);
  });

  it("replays an allocation with the same Idempotency-Key (one effect); a different body with the key is 422", async () => {
    const pay = await recordPayment(org.api, { amount_minor: "1000" });
    const obl = await newObligation(org.api, "1000");
    const key = `alloc-${randomUUID()}`;
    const body = { obligation_id: obl.id, amount_minor: "250", expected_version: 1 };
    const first = await allocate(org.api, pay.id, body, key);
    expect(first.status).toBe(200);
    const replays = await Promise.all(Array.from({ length: 5 }, () => allocate(org.api, pay.id, body, key)));
    for (const r of replays) {
      expect(r.status).toBe(200);
      expect(r.headers.get("idempotent-replayed")).toBe("true");
      expect(r.text).toBe(first.text);
    }
    const reused = await allocate(org.api, pay.id, { ...body, amount_minor: "251" }, key);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe("idempotency_key_reused");
    expect(await paymentView(pay.id)).toMatchObject({ allocated_minor: "250", allocations: [expect.objectContaining({ amount_minor: "250" })] });
    expect(await obligationDetail(obl.id)).toMatchObject({ version: 2, allocated_minor: "250" });
    // a refusal is replayed too (4xx other than 409/429 is stored)
    const k2 = `alloc-${randomUUID()}`;
    const refused = await allocate(org.api, pay.id, { obligation_id: obl.id, amount_minor: "5000", expected_version: 2 }, k2);
    expect(refused.status).toBe(422);
    const refusedAgain = await allocate(org.api, pay.id, { obligation_id: obl.id, amount_minor: "5000", expected_version: 2 }, k2);
    expect(refusedAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(refusedAgain.text).toBe(refused.text);
  });

  it.runIf(backend() === "postgres")("a database deadlock is 409 version_conflict with nothing changed, never a 500; the retry succeeds", async () => {
    const pay = await recordPayment(org.api, { amount_minor: "1000" });
    const obl = await newObligation(org.api, "1000");
    // Another client locks the obligation row, then (once the server's allocation holds the
    // payment and waits for the obligation) asks for the payment: a real lock cycle. The
    // server's transaction waited first, so PostgreSQL's detector picks it as the victim.
    const c = new pg.Client({ connectionString: inject("databaseUrl") });
    await c.connect();
    try {
      await c.query("BEGIN");
      // (locking reads name the organization: Citus serves them on one shard only)
      await c.query("SELECT 1 FROM obligations WHERE id = $1 AND organization_id = $2 FOR UPDATE", [obl.id, org.organizationId]);
      const key = `deadlock-${randomUUID()}`;
      const body = { obligation_id: obl.id, amount_minor: "100", expected_version: 1 };
      const pending = allocate(org.api, pay.id, body, key);
      await untilSomeoneWaits(c, "the allocation");
      const mine = c.query("SELECT 1 FROM payments WHERE id = $1 AND organization_id = $2 FOR UPDATE", [pay.id, org.organizationId]).then(
        () => "locked",
        (e: Error) => `failed: ${e.message}`,
      );
      const r = await pending;
      expect(r.status, r.text).toBe(409);
      expect(r.body).toEqual({ error: { code: "version_conflict", message: expect.stringContaining("retry") } });
      expect(await mine).toBe("locked");
      await c.query("ROLLBACK");
      expect(await paymentView(pay.id)).toMatchObject({ allocated_minor: "0", allocations: [] });
      expect(await obligationDetail(obl.id)).toMatchObject({ version: 1, allocated_minor: "0" });
      // a 409 is not stored: the same key runs again and succeeds
      const retry = await allocate(org.api, pay.id, body, key);
      expect(retry.status, retry.text).toBe(200);
      expect(retry.headers.get("idempotent-replayed")).toBeNull();
    } finally {
      await c.query("ROLLBACK").catch(() => undefined);
      await c.end();
    }
    const log = await import("node:fs").then((fs) => fs.readFileSync(inject("logFile"), "utf8"));
    expect(log).not.toMatch(/"status":500/);
  });
});

describe("payments permissions and authentication", () => {
  let org: OrgFixture;
  let payId: string;
  let oblId: string;
  beforeAll(async () => {
    org = await newOrg("Payments Authz Ltd");
    payId = (await recordPayment(org.api, { amount_minor: "1000" })).id;
    oblId = (await newObligation(org.api, "1000")).id;
  });

  it("401 without credentials", async () => {
    const anon = new Api(baseUrl());
    for (const r of [
      await anon.get("/payments"),
      await anon.get(`/payments/${payId}`),
      await anon.post("/payments", paymentBody()),
      await anon.post(`/payments/${payId}/allocations`, { obligation_id: oblId, amount_minor: "1", expected_version: 1 }),
    ]) {
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe("unauthenticated");
    }
  });

  it("API key scopes: payments:read reads, payments:write writes and allocates; obligations scopes do not reach payments", async () => {
    const reader = await apiKeyWith(org, ["payments:read"]);
    expect((await reader.get("/payments")).status).toBe(200);
    expect((await reader.get(`/payments/${payId}`)).status).toBe(200);
    for (const r of [
      await reader.post("/payments", paymentBody()),
      await reader.post(`/payments/${payId}/allocations`, { obligation_id: oblId, amount_minor: "1", expected_version: 1 }),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("insufficient_scope");
    }
    const oblOnly = await apiKeyWith(org, ["obligations:read", "obligations:write"]);
    for (const r of [
      await oblOnly.get("/payments"),
      await oblOnly.post("/payments", paymentBody()),
      await oblOnly.post(`/payments/${payId}/allocations`, { obligation_id: oblId, amount_minor: "1", expected_version: 1 }),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe("insufficient_scope");
    }
    const writer = await apiKeyWith(org, ["payments:write"]);
    expect((await writer.post("/payments", paymentBody())).status).toBe(201);
    expect((await writer.get("/payments")).status).toBe(403);
    const r = await writer.post(`/payments/${payId}/allocations`, { obligation_id: oblId, amount_minor: "1", expected_version: 1 });
    expect(r.status, r.text).toBe(200);
  });

  it("roles: a viewer reads but may not record or allocate (403 insufficient_permission); a member may", async () => {
    const viewer = await signedIn((await userWith(org, "viewer")).email);
    expect((await viewer.get("/payments")).status).toBe(200);
    const w = await viewer.post("/payments", paymentBody());
    expect(w.status).toBe(403);
    expect(w.body.error.code).toBe("insufficient_permission");
    const a = await viewer.post(`/payments/${payId}/allocations`, { obligation_id: oblId, amount_minor: "1", expected_version: 2 });
    expect(a.status).toBe(403);
    expect(a.body.error.code).toBe("insufficient_permission");
    const member = await signedIn((await userWith(org, "member")).email);
    const rec = await member.post("/payments", paymentBody({ received_on: dayOffset(0) }));
    expect(rec.status).toBe(201);
    const al = await member.post(`/payments/${rec.body.id}/allocations`, { obligation_id: oblId, amount_minor: "2", expected_version: 2 });
    expect(al.status, al.text).toBe(200);
    const ev = await db().event.findFirstOrThrow({ where: { id: al.body.operation_id } });
    expect(ev.actorType).toBe("user");
  });
});
