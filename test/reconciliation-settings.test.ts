import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Api } from "./support/api";
import { apiKeyWith, newOrg, signedIn, userWith, type OrgFixture } from "./support/fixtures";
import { dayOffset } from "./support/obligations";
import { recordPayment } from "./support/payments";
import { camt053, upload } from "./support/statements";

// §12 over HTTP: GET/PUT /reconciliation-settings (who may), `confident` automatic
// allocation at import, rejecting a suggestion, the alias an accepted suggestion teaches,
// and GET /reconciliation/stats.

const put = (api: Api, body: unknown, key = `t-${randomUUID()}`) => api.call("PUT", "/reconciliation-settings", { body, headers: { "idempotency-key": key } });

async function obligation(org: OrgFixture, o: { amount: string; debtor?: string; invoice: string }) {
  const r = await org.api.post("/obligations", {
    obligation_type: "invoice",
    external_reference: { namespace: "erp", id: `${o.invoice}-${randomUUID().slice(0, 6)}` },
    debtor: { name: o.debtor ?? "Northwind Traders Ltd", email: "ap@northwind.example" },
    amount_minor: o.amount,
    currency: "EUR",
    deadline: dayOffset(3),
    business_context: { invoice_number: o.invoice },
  });
  expect(r.status, r.text).toBe(201);
  return r.body.obligation as { id: string; reference: string };
}

describe("reconciliation settings, stats, reject and aliases", () => {
  let org: OrgFixture;
  let owner: Api;
  beforeAll(async () => {
    org = await newOrg("Settings Reconciliation Ltd");
    owner = await signedIn(org.email);
  });

  it("the served document describes csv_mapping's JSON (contentSchema) and the new endpoints", async () => {
    const doc = await org.api.get("/openapi.json");
    expect(doc.status).toBe(200);
    const field = doc.body.paths["/bank-statements"].post.requestBody.content["multipart/form-data"].schema.properties.csv_mapping;
    expect(field.type).toBe("string");
    expect(field.contentMediaType).toBe("application/json");
    expect(field.contentSchema.properties.date).toBeDefined();
    expect(doc.body.paths["/reconciliation-settings"].put).toBeDefined();
    expect(doc.body.paths["/reconciliation/stats"].get).toBeDefined();
    expect(doc.body.paths["/payments/{id}/suggestions/{suggestion}/reject"].post).toBeDefined();
  });

  it("GET answers the defaults; PUT needs an owner or admin session; bad input is 422", async () => {
    const g = await org.api.get("/reconciliation-settings");
    expect(g.status, g.text).toBe(200);
    expect(g.body).toEqual({ auto_allocate: "reference_only", tolerance: null, updated_at: "" });
    const body = { auto_allocate: "confident", tolerance: { max_minor: "2500", max_basis_points: 200, kind: "bank_fee" } };
    const byKey = await put(org.api, body);
    expect(byKey.status, byKey.text).toBe(403);
    expect(byKey.body.error.code).toBe("insufficient_scope");
    const member = await signedIn((await userWith(org, "member")).email);
    const byMember = await put(member, body);
    expect(byMember.status, byMember.text).toBe(403);
    expect(byMember.body.error.code).toBe("insufficient_permission");
    const reader = await apiKeyWith(org, ["payments:read"]);
    expect((await reader.get("/reconciliation-settings")).status).toBe(200);
    for (const bad of [
      { auto_allocate: "always", tolerance: null },
      { auto_allocate: "confident", tolerance: { max_minor: "-1", max_basis_points: 200, kind: "bank_fee" } },
      { auto_allocate: "confident", tolerance: { max_minor: "100", max_basis_points: 10_001, kind: "bank_fee" } },
      { auto_allocate: "confident", tolerance: { max_minor: "100", max_basis_points: 1, kind: "write_off" } },
      { auto_allocate: "confident" },
    ]) {
      const r = await put(owner, bad);
      expect(r.status, JSON.stringify(bad)).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
    }
    const ok = await put(owner, body);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject(body);
    expect(ok.body.updated_at).not.toBe("");
    expect((await org.api.get("/reconciliation-settings")).body).toEqual(ok.body);
    const admin = await signedIn((await userWith(org, "admin")).email);
    expect((await put(admin, body)).status).toBe(200);
  });

  it("`confident`: an invoice number written another way, amount in full, is allocated at import; `reference_only` leaves it", async () => {
    const a = await obligation(org, { amount: "48000", invoice: "INV-2026-0202" });
    const b = await obligation(org, { amount: "51000", invoice: "INV-2026-0203" });
    expect((await put(owner, { auto_allocate: "reference_only", tolerance: null })).status).toBe(200);
    const first = await upload(
      org.api,
      camt053([{ amount: "510.00", name: "NORTHWIND TRADERS", ustrd: "Rechnung inv 2026/203" }], { iban: "DE02120300000000202051" }),
    );
    expect(first.status, first.text).toBe(201);
    expect(first.body.auto_allocated).toBe(0);
    expect(first.body.suggested).toBe(1);
    expect((await put(owner, { auto_allocate: "confident", tolerance: null })).status).toBe(200);
    const r = await upload(
      org.api,
      camt053([{ amount: "480.00", name: "NORTHWIND TRADERS", ustrd: "Rechnung INV-2026-202" }], { iban: "DE02120300000000202051" }),
    );
    expect(r.status, r.text).toBe(201);
    expect(r.body.auto_allocated).toBe(1);
    const detail = await org.api.get(`/bank-statements/${r.body.id}`);
    const payment = await org.api.get(`/payments/${detail.body.items[0].payment_id}`);
    expect(payment.body.allocations.map((x: { obligation_id: string }) => x.obligation_id)).toEqual([a.id]);
    expect(b.id).not.toBe(a.id);

    const stats = await org.api.get("/reconciliation/stats?from=2026-11-01&to=2026-11-30");
    expect(stats.status, stats.text).toBe(200);
    expect(stats.body).toMatchObject({ transactions_imported: 2, allocated_automatically: 1, accepted_as_suggested: 0, allocated_by_hand: 0, dismissed: 0 });
    expect((await org.api.get("/reconciliation/stats?from=2026-12-01&to=2026-11-30")).status).toBe(422);
    expect((await org.api.get("/reconciliation/stats?from=2026-11-31")).status).toBe(422);
  });

  it("reject hides that allocation set for that payment; accept teaches the payer name as an alias", async () => {
    const o1 = await obligation(org, { amount: "33300", invoice: "AL-1", debtor: "O'Brien & Sons Ltd" });
    const p1 = await recordPayment(org.api, { amount_minor: "33300", reference: "Transfer", payer_name: "OB HOLDINGS" });
    const s1 = (await org.api.get(`/payments/${p1.id}/suggestions`)).body.items;
    expect(s1[0].allocations[0].obligation_id).toBe(o1.id);
    expect(s1[0].confidence).toBe("low");

    const stale = await org.api.post(`/payments/${p1.id}/suggestions/sug_000000000000000000000000v1/reject`);
    expect(stale.status, stale.text).toBe(409);
    expect(stale.body.error.code).toBe("suggestion_stale");
    const other = await newOrg("Reject Other Tenant");
    expect((await other.api.post(`/payments/${p1.id}/suggestions/${s1[0].id}/reject`)).status).toBe(404);

    const rej = await org.api.post(`/payments/${p1.id}/suggestions/${s1[0].id}/reject`);
    expect(rej.status, rej.text).toBe(200);
    expect(rej.body.items.some((s: { id: string }) => s.id === s1[0].id)).toBe(false);
    expect((await org.api.get(`/payments/${p1.id}/suggestions`)).body.items.some((s: { id: string }) => s.id === s1[0].id)).toBe(false);

    // Accepting on another payment teaches "OB HOLDINGS" as an alias of O'Brien & Sons.
    const p2 = await recordPayment(org.api, { amount_minor: "33300", reference: "Transfer", payer_name: "OB HOLDINGS" });
    const s2 = (await org.api.get(`/payments/${p2.id}/suggestions`)).body.items;
    expect(s2[0].allocations[0].obligation_id).toBe(o1.id);
    const acc = await org.api.post(`/payments/${p2.id}/suggestions/${s2[0].id}/accept`);
    expect(acc.status, acc.text).toBe(200);

    const o2 = await obligation(org, { amount: "44400", invoice: "AL-2", debtor: "O'Brien & Sons Ltd" });
    const p3 = await recordPayment(org.api, { amount_minor: "44400", reference: "Transfer", payer_name: "OB HOLDINGS" });
    const s3 = (await org.api.get(`/payments/${p3.id}/suggestions`)).body.items;
    expect(s3[0].allocations[0].obligation_id).toBe(o2.id);
    expect(s3[0].confidence).toBe("medium");
    const payer = s3[0].evidence.find((e: { signal: string }) => e.signal === "payer");
    expect(payer.matched).toBe(true);
    expect(payer.detail).toContain("paid by this name before");
  });

  it("tolerance: a payment short within it is allocated at import and the shortfall credited; accepting a suggestion does the same; stats count dismissals and reversed automatic allocations", async () => {
    const t = await newOrg("Tolerance Reconciliation Ltd");
    const tOwner = await signedIn(t.email);
    const tolerance = { max_minor: "2500", max_basis_points: 200, kind: "bank_fee" };
    expect((await put(tOwner, { auto_allocate: "confident", tolerance })).status).toBe(200);
    const o = await obligation(t, { amount: "125000", invoice: "INV-2026-0300" });
    const r = await upload(
      t.api,
      camt053([{ amount: "1238.00", name: "NORTHWIND TRADERS", ustrd: "Invoice INV-2026-0300" }], { iban: "DE02120300000000202051" }),
    );
    expect(r.status, r.text).toBe(201);
    expect(r.body.auto_allocated).toBe(1);
    const detail = (await t.api.get(`/obligations/${o.id}`)).body;
    expect(detail.status).toBe("RECONCILED");
    expect(detail.settled).toEqual({ by_payments_minor: "123800", by_credits_minor: "1200" });
    expect(detail.credits).toHaveLength(1);
    expect(detail.credits[0]).toMatchObject({ kind: "bank_fee", amount_minor: "1200" });
    expect(detail.credits[0].reason).toContain("tolerance");

    // Short by more than the tolerance (30.00 > 25.00): left to a person, nothing credited.
    const o2 = await obligation(t, { amount: "125000", invoice: "INV-2026-0301" });
    const r2 = await upload(
      t.api,
      camt053([{ amount: "1220.00", name: "NORTHWIND TRADERS", ustrd: "Invoice INV-2026-0301" }], { iban: "DE02120300000000202051" }),
    );
    expect(r2.body.auto_allocated).toBe(0);
    expect((await t.api.get(`/obligations/${o2.id}`)).body.credits).toEqual([]);

    // Accepting a suggestion short within the tolerance credits the rest in the same transaction.
    const o3 = await obligation(t, { amount: "50000", invoice: "ACC-77", debtor: "Contoso Ltd" });
    const p3 = await recordPayment(t.api, { amount_minor: "49500", reference: "ACC-77", payer_name: "CONTOSO" });
    const s3 = (await t.api.get(`/payments/${p3.id}/suggestions`)).body.items;
    expect(s3[0].allocations[0].obligation_id).toBe(o3.id);
    const acc = await t.api.post(`/payments/${p3.id}/suggestions/${s3[0].id}/accept`);
    expect(acc.status, acc.text).toBe(200);
    expect(acc.body.obligations[0]).toMatchObject({ status: "RECONCILED", allocated_minor: "50000" });
    expect(acc.body.credits).toHaveLength(1);
    expect(acc.body.credits[0]).toMatchObject({ kind: "bank_fee", amount_minor: "500" });

    // `settle_remainder: null` ("Leave it open" in the dashboard): allocated, the rest stays open
    // although the tolerance covers it.
    const o4 = await obligation(t, { amount: "50000", invoice: "ACC-78", debtor: "Contoso Ltd" });
    const p4 = await recordPayment(t.api, { amount_minor: "49500", reference: "ACC-78", payer_name: "CONTOSO" });
    const s4 = (await t.api.get(`/payments/${p4.id}/suggestions`)).body.items;
    expect(s4[0].allocations[0].obligation_id).toBe(o4.id);
    const open = await t.api.post(`/payments/${p4.id}/suggestions/${s4[0].id}/accept`, { settle_remainder: null });
    expect(open.status, open.text).toBe(200);
    expect(open.body.obligations[0]).toMatchObject({ status: "PARTIALLY_RECONCILED", allocated_minor: "49500" });
    expect(open.body.credits ?? []).toEqual([]);
    expect((await t.api.get(`/obligations/${o4.id}`)).body.credits).toEqual([]);

    // Reverse the automatic allocation, dismiss the payment left to a person: the stats say so.
    const auto = (await t.api.get(`/bank-statements/${r.body.id}`)).body.items[0].payment_id;
    const pay = (await t.api.get(`/payments/${auto}`)).body;
    const now = (await t.api.get(`/obligations/${o.id}`)).body;
    const rev = await t.api.post(`/payments/${auto}/allocations/${pay.allocations[0].id}/reverse`, { expected_version: now.version, reason: "Wrong match" });
    expect(rev.status, rev.text).toBe(200);
    const left = (await t.api.get(`/bank-statements/${r2.body.id}`)).body.items[0].payment_id;
    const dis = await t.api.post(`/payments/${left}/dismiss`, { reason: "other", note: "test" });
    expect(dis.status, dis.text).toBe(200);
    const stats = await t.api.get("/reconciliation/stats?from=2026-01-01&to=2027-12-31");
    expect(stats.body).toMatchObject({ transactions_imported: 2, allocated_automatically: 1, dismissed: 1, automatic_allocations_reversed: 1 });
  });
});
