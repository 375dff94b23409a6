import { createHash, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { ZInvoiceRecord, ZMutationResult, ZObligationDetail, ZObligationList, ZObligationProjection } from "@/lib/schemas/obligations";
import { Api, baseUrl } from "./support/api";
import { apiKeyWith, newOrg, signedIn, userWith, type OrgFixture } from "./support/fixtures";
import { dayOffset, legacyBody, registerObligation } from "./support/obligations";

// Registration, the terms engine over HTTP, lists and details of /obligations.

async function businessContext(org: OrgFixture, name = "Warehouse fit-out") {
  // Business contexts have their own endpoints (another capability); a row is enough here.
  const id = newId();
  await db().businessContext.create({
    data: { id, organizationId: org.organizationId, type: "project", kind: "group", name, reference: "PRJ-7", typeLabel: "Project" },
  });
  return id;
}

describe("POST /obligations", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Acme Supplies GmbH");
    other = await newOrg("Other Org");
  });

  it("accepts the earlier narrow body: creditor defaults to the organization, recipient is the debtor, every field present", async () => {
    const body = legacyBody();
    const r = await org.api.post("/obligations", body);
    expect(r.status, r.text).toBe(201);
    const res = ZMutationResult.parse(r.body); // exact shape: every field, no extra ones
    expect(res.event_type).toBe("obligation.registered");
    const inv = res.invoice;
    expect(inv).toMatchObject({
      organization_id: org.organizationId,
      issuer_name: "Acme Supplies GmbH",
      obligation_type: "invoice",
      organization_role: "creditor",
      obligation_label: "",
      creditor_name: "Acme Supplies GmbH",
      creditor_email: "",
      debtor_name: "Northwind Traders",
      debtor_email: "ap@northwind.example",
      recipient_name: "Northwind Traders",
      recipient_email: "ap@northwind.example",
      external_namespace: "erp",
      external_id: body.external_reference.id,
      invoice_number: body.business_context.invoice_number,
      description: "Consulting, October",
      condition_summary: "",
      condition_status: "satisfied",
      condition_satisfied_on: "",
      conditions: [],
      payment_terms: [],
      contexts: [],
      amount_minor: "125000",
      allocated_minor: "0",
      payable_minor: "125000", // implicit term: triggered at registration
      due_minor: "0", // due on the deadline, 30 days ahead
      currency: "EUR",
      due_date: body.deadline,
      expected_payment_date: "",
      reported_payment_date: "",
      status: "OBLIGATION_CAPTURED",
      version: 1,
      acknowledged: false,
      link_revoked: false,
    });
    expect(inv.reference).toMatch(/^OBL-[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(inv.link_expires_at).toBe(res.payment_request!.expires_at);
    const ob = ZObligationProjection.parse(res.obligation);
    expect(ob).toMatchObject({
      id: inv.id,
      reference: inv.reference,
      external_reference: body.external_reference,
      debtor: body.debtor,
      creditor: { name: "Acme Supplies GmbH" },
      business_context: body.business_context,
      deadline: body.deadline,
      label: "",
      condition: { summary: "", status: "satisfied", satisfied_on: "" },
      version: 1,
    });
    // operation_id is the registration event
    const detail = await org.api.get(`/obligations/${inv.id}`);
    expect(detail.body.audit_trail.map((e: any) => e.id)).toEqual([res.operation_id]);
  });

  it("creates the hosted payment request: token only in the fragment, >= 256 bits, only its hash stored", async () => {
    const res = await registerObligation(org.api);
    const pr = res.payment_request;
    expect(Object.keys(pr).sort()).toEqual(["expires_at", "hosted_url", "id", "obligation_id"]);
    expect(pr.obligation_id).toBe(res.invoice.id);
    const url = new URL(pr.hosted_url);
    expect(`${url.protocol}//${url.host}`).toBe(baseUrl());
    expect(url.pathname).toBe(`/r/${pr.id}`);
    const token = url.hash.slice(1);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(Buffer.from(token, "base64url").length).toBeGreaterThanOrEqual(32);
    const ttlDays = (Date.parse(pr.expires_at) - Date.now()) / 86_400_000;
    expect(ttlDays).toBeGreaterThan(89);
    expect(ttlDays).toBeLessThanOrEqual(90);
    const row = await db().paymentRequest.findFirstOrThrow({ where: { id: pr.id } });
    // <route>_<secret>: the route is the organization's id (no secret); the secret alone is hashed
    const [route, secret] = [token.slice(0, 22), token.slice(23)];
    expect(token[22]).toBe("_");
    expect(Buffer.from(route, "base64url").toString("hex")).toBe(row.organizationId.replace(/-/g, ""));
    expect(Buffer.from(secret, "base64url").length).toBeGreaterThanOrEqual(32);
    expect(row.tokenHash).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);
    const events = await db().event.findMany({ where: { obligationId: res.invoice.id } });
    expect(JSON.stringify(events)).not.toContain(token);
    // The detail shows the same link again (derived, not stored).
    const d = await org.api.get(`/obligations/${res.invoice.id}`);
    expect(d.body.payment_request).toEqual({ ...pr, revoked: false });
  });

  it("organization_role debtor: the debtor is the organization and the recipient is the creditor", async () => {
    const r = await registerObligation(
      org.api,
      legacyBody({
        obligation_type: "contractual",
        organization_role: "debtor",
        debtor: undefined,
        creditor: { name: "Landlord Ltd", email: "rent@landlord.example" },
      }),
    );
    expect(r.invoice).toMatchObject({
      organization_role: "debtor",
      debtor_name: "Acme Supplies GmbH",
      debtor_email: "",
      creditor_name: "Landlord Ltd",
      recipient_name: "Landlord Ltd",
      recipient_email: "rent@landlord.example",
    });
    expect(r.obligation.debtor).toEqual({ name: "Acme Supplies GmbH" });
  });

  it("maps the legacy single condition to the summary condition", async () => {
    const r = await registerObligation(
      org.api,
      legacyBody({ obligation_type: "payment_condition", label: "Retention", condition: { summary: "Released after inspection", status: "pending" } }),
    );
    expect(r.invoice).toMatchObject({
      condition_summary: "Released after inspection",
      condition_status: "pending",
      condition_satisfied_on: "",
      obligation_label: "Retention",
    });
    expect(r.obligation.condition).toEqual({ summary: "Released after inspection", status: "pending", satisfied_on: "" });
    const s = await registerObligation(org.api, legacyBody({ condition: { summary: "Signed", status: "satisfied", satisfied_on: "2026-01-15" } }));
    expect(s.obligation.condition).toEqual({ summary: "Signed", status: "satisfied", satisfied_on: "2026-01-15" });
  });

  it("registers conditions and payment terms and calculates payable and due amounts", async () => {
    const body = legacyBody({
      amount_minor: "100001",
      conditions: [
        { key: "acceptance", label: "Customer acceptance", external_reference: { namespace: "pm", id: "MS-1" } },
        { key: "permit", label: "Permit granted", status: "satisfied", satisfied_on: dayOffset(-20), source: "registry", evidence_reference: "PERMIT-9" },
      ],
      payment_terms: [
        {
          sequence: 3,
          label: "On acceptance",
          amount_type: "percentage",
          percentage_basis_points: 5000,
          trigger_type: "condition_satisfied",
          condition_key: "acceptance",
          due_rule: "days_after_trigger",
          due_days: 30,
        },
        { sequence: 1, label: "Deposit", amount_type: "fixed", fixed_amount_minor: "10001", trigger_type: "immediately", due_rule: "immediately" },
        {
          sequence: 2,
          amount_type: "percentage",
          percentage_basis_points: 3000,
          trigger_type: "condition_satisfied",
          condition_key: "permit",
          due_rule: "days_after_trigger",
          due_days: 10,
        },
        {
          sequence: 4,
          amount_type: "fixed",
          fixed_amount_minor: "10000",
          trigger_type: "specific_date",
          trigger_date: dayOffset(5),
          due_rule: "specific_date",
          due_date: dayOffset(20),
        },
      ],
    });
    const r = await registerObligation(org.api, body);
    const inv = ZInvoiceRecord.parse(r.invoice);
    expect(inv.conditions).toHaveLength(2);
    const [acc, permit] = inv.conditions;
    expect(acc).toEqual({
      id: expect.any(String),
      key: "acceptance",
      label: "Customer acceptance",
      external_reference: { namespace: "pm", id: "MS-1" },
      status: "waiting",
      source: "",
      evidence_reference: "",
    });
    expect(permit).toMatchObject({ key: "permit", status: "satisfied", satisfied_on: dayOffset(-20), source: "registry", evidence_reference: "PERMIT-9" });
    expect(inv.condition_status).toBe("pending");
    // terms come back ordered by sequence with their computed amounts and dates
    expect(inv.payment_terms.map((t) => t.sequence)).toEqual([1, 2, 3, 4]);
    const amounts = Object.fromEntries(inv.payment_terms.map((t) => [t.sequence, t.amount_minor]));
    // 30% and 50% of 100001: 30000.3 and 50000.5 -> floors 30000 and 50000, remainder
    // floor(80000.8) - 80000 = 0; fixed 10001 + 10000 -> total 100001
    expect(amounts).toEqual({ 1: "10001", 2: "30000", 3: "50000", 4: "10000" });
    const t = Object.fromEntries(inv.payment_terms.map((x) => [x.sequence, x]));
    expect(t[1]).toMatchObject({ label: "Deposit", triggered_on: dayOffset(0), payable_on: dayOffset(0) });
    expect(t[2]).toMatchObject({ condition_id: permit.id, condition_key: "permit", triggered_on: dayOffset(-20), payable_on: dayOffset(-10) });
    expect(t[3]).toMatchObject({ condition_id: acc.id, condition_key: "acceptance" });
    expect(t[3].triggered_on).toBeUndefined();
    expect(t[3].payable_on).toBeUndefined();
    expect(t[4]).toMatchObject({ trigger_date: dayOffset(5), triggered_on: dayOffset(5), due_date: dayOffset(20), payable_on: dayOffset(20) });
    // payable: deposit + permit term (triggered); due: deposit (today) + permit term (10 days ago)
    expect(inv.payable_minor).toBe("40001");
    expect(inv.due_minor).toBe("40001");
    expect(r.obligation.payment_terms).toEqual(inv.payment_terms);
  });

  it("puts the percentage rounding remainder on the last percentage term by sequence", async () => {
    const r = await registerObligation(
      org.api,
      legacyBody({
        amount_minor: "1001",
        payment_terms: [
          { sequence: 2, amount_type: "percentage", percentage_basis_points: 7000, trigger_type: "immediately", due_rule: "immediately" },
          { sequence: 1, amount_type: "percentage", percentage_basis_points: 3000, trigger_type: "immediately", due_rule: "immediately" },
        ],
      }),
    );
    expect(r.invoice.payment_terms.map((t: any) => t.amount_minor)).toEqual(["300", "701"]);
    expect(r.invoice.payable_minor).toBe("1001");
    expect(r.invoice.due_minor).toBe("1001");
  });

  it("refuses terms that do not add up or reference unknown conditions with 422 payment_terms_mismatch", async () => {
    const term = { amount_type: "fixed", trigger_type: "immediately", due_rule: "immediately" };
    const cases = [
      { payment_terms: [{ ...term, sequence: 1, fixed_amount_minor: "100" }] },
      { payment_terms: [{ sequence: 1, amount_type: "percentage", percentage_basis_points: 9999, trigger_type: "immediately", due_rule: "immediately" }] },
      { payment_terms: [{ ...term, sequence: 1, fixed_amount_minor: "125000", trigger_type: "condition_satisfied", condition_key: "nope" }] },
      {
        conditions: [{ key: "a", label: "A" }],
        payment_terms: [{ ...term, sequence: 1, fixed_amount_minor: "125000", trigger_type: "condition_satisfied", condition_id: randomUUID() }],
      },
      { payment_terms: [{ ...term, sequence: 1, fixed_amount_minor: "125000", amount_minor: "125001" }] },
    ];
    for (const c of cases) {
      const r = await org.api.post("/obligations", legacyBody(c));
      expect(r.status, JSON.stringify(c)).toBe(422);
      expect(r.body.error.code).toBe("payment_terms_mismatch");
      expect(r.body.error.message).toMatch(/payment_terms/);
    }
    // A term may reference a condition by the id the client gave it in the same request.
    const cid = randomUUID();
    const ok = await registerObligation(
      org.api,
      legacyBody({
        conditions: [{ id: cid, key: "a", label: "A" }],
        payment_terms: [{ ...term, sequence: 1, fixed_amount_minor: "125000", trigger_type: "condition_satisfied", condition_id: cid }],
      }),
    );
    expect(ok.invoice.payment_terms[0].condition_id).toBe(ok.invoice.conditions[0].id);
    expect(ok.invoice.payable_minor).toBe("0");
  });

  it("refuses malformed bodies with 422 validation_failed naming each field", async () => {
    const term = { sequence: 1, amount_type: "fixed", fixed_amount_minor: "125000", trigger_type: "immediately", due_rule: "immediately" };
    const cases: [Record<string, unknown>, string][] = [
      [{ surprise: 1 }, "body.surprise"],
      [{ amount_minor: "0" }, "body.amount_minor"],
      [{ amount_minor: "12.50" }, "body.amount_minor"],
      [{ amount_minor: 125000 }, "body.amount_minor"],
      [{ amount_minor: "9223372036854775808" }, "body.amount_minor"],
      [{ currency: "SEK" }, "body.currency"],
      [{ deadline: "2026-02-30" }, "body.deadline"],
      [{ obligation_type: "loan" }, "body.obligation_type"],
      [{ organization_role: "guarantor" }, "body.organization_role"],
      [{ external_reference: { namespace: "erp" } }, "body.external_reference.id"],
      [{ business_context: { description: "x" } }, "body.business_context.invoice_number"],
      [{ debtor: { email: "a@b.c" } }, "body.debtor.name"],
      [{ debtor: { name: "A", phone: "1" } }, "body.debtor.phone"],
      [{ conditions: [{ key: "k".repeat(121), label: "A" }] }, "body.conditions.0.key"],
      [{ conditions: [{ key: "k", label: "l".repeat(251) }] }, "body.conditions.0.label"],
      [{ conditions: [{ key: "k", label: "A", status: "pending" }] }, "body.conditions.0.status"],
      [
        {
          conditions: [
            { key: "k", label: "A" },
            { key: "k", label: "B" },
          ],
        },
        "body.conditions.1.key",
      ],
      [{ payment_terms: [{ ...term, sequence: 0 }] }, "body.payment_terms.0.sequence"],
      [{ payment_terms: [{ ...term, label: "l".repeat(251) }] }, "body.payment_terms.0.label"],
      [
        { payment_terms: [{ ...term, amount_type: "percentage", fixed_amount_minor: undefined, percentage_basis_points: 10001 }] },
        "body.payment_terms.0.percentage_basis_points",
      ],
      [{ payment_terms: [{ ...term, due_rule: "days_after_trigger", due_days: 36501 }] }, "body.payment_terms.0.due_days"],
      [{ payment_terms: [{ ...term, due_rule: "days_after_trigger" }] }, "body.payment_terms.0.due_days"],
      [{ payment_terms: [{ ...term, trigger_type: "specific_date" }] }, "body.payment_terms.0.trigger_date"],
      [{ payment_terms: [{ ...term, due_rule: "specific_date" }] }, "body.payment_terms.0.due_date"],
      [{ payment_terms: [{ ...term, fixed_amount_minor: undefined }] }, "body.payment_terms.0.fixed_amount_minor"],
      [
        {
          payment_terms: [
            { ...term, fixed_amount_minor: "62500" },
            { ...term, fixed_amount_minor: "62500" },
          ],
        },
        "body.payment_terms.1.sequence",
      ],
      [{ payment_terms: [{ ...term, trigger_type: "condition_satisfied" }] }, "body.payment_terms.0.condition_key"],
      [{ payment_terms: [{ ...term, extra: true }] }, "body.payment_terms.0.extra"],
      [{ context_ids: ["not-a-uuid"] }, "body.context_ids.0"],
    ];
    for (const [patch, path] of cases) {
      const r = await org.api.post("/obligations", legacyBody(patch));
      expect(r.status, `${path}: ${r.text}`).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain(path);
    }
    const missing = await org.api.post("/obligations", {});
    expect(missing.status).toBe(422);
    for (const f of ["obligation_type", "external_reference", "amount_minor", "currency", "deadline", "business_context"]) {
      expect(missing.body.error.message).toContain(`body.${f}`);
    }
    const notJson = await org.api.post("/obligations", "{nope");
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe("malformed_request");
  });

  it("links business contexts of the organization; unknown or foreign ones are 422 naming body.context_ids.N", async () => {
    const mine = await businessContext(org);
    const foreign = await businessContext(other, "Not yours");
    const bad = await org.api.post("/obligations", legacyBody({ context_ids: [mine, foreign, randomUUID()] }));
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("validation_failed");
    expect(bad.body.error.message).toContain("body.context_ids.1");
    expect(bad.body.error.message).toContain("body.context_ids.2");
    expect(bad.body.error.message).not.toContain("body.context_ids.0");
    const r = await registerObligation(org.api, legacyBody({ context_ids: [mine, mine] }));
    expect(r.invoice.contexts).toEqual([
      { id: mine, type: "project", kind: "group", type_label: "Project", name: "Warehouse fit-out", reference: "PRJ-7", relationship_type: "related" },
    ]);
    expect(r.obligation.contexts).toEqual(r.invoice.contexts);
  });

  it("replays a registration with the same Idempotency-Key byte for byte and creates nothing twice", async () => {
    const key = `reg-${randomUUID()}`;
    const body = legacyBody();
    const a = await org.api.post("/obligations", body, { idempotencyKey: key });
    const b = await org.api.post("/obligations", body, { idempotencyKey: key });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.text).toBe(a.text);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(a.headers.get("idempotent-replayed")).toBeNull();
    const count = await db().obligation.count({ where: { organizationId: org.organizationId, externalId: body.external_reference.id } });
    expect(count).toBe(1);
    const reused = await org.api.post("/obligations", { ...body, amount_minor: "1" }, { idempotencyKey: key });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe("idempotency_key_reused");
    const noKey = await org.api.post("/obligations", body, { idempotencyKey: null });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error.code).toBe("idempotency_key_required");
    const shortKey = await org.api.post("/obligations", body, { idempotencyKey: "short" });
    expect(shortKey.status).toBe(400);
  });

  it("concurrent registrations with one key: exactly one executes", async () => {
    const key = `race-${randomUUID()}`;
    const body = legacyBody();
    const rs = await Promise.all(Array.from({ length: 8 }, () => org.api.post("/obligations", body, { idempotencyKey: key })));
    for (const r of rs) expect([201, 409]).toContain(r.status);
    const ok = rs.filter((r) => r.status === 201);
    expect(new Set(ok.map((r) => r.body.invoice.id)).size).toBe(1);
    for (const r of rs.filter((x) => x.status === 409)) expect(r.body.error.code).toBe("idempotency_request_in_progress");
    expect(await db().obligation.count({ where: { organizationId: org.organizationId, externalId: body.external_reference.id } })).toBe(1);
  });

  it("needs a credential with obligations:write", async () => {
    const anon = new Api(baseUrl());
    const r = await anon.post("/obligations", legacyBody());
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("unauthenticated");
    const reader = await apiKeyWith(org, ["obligations:read"]);
    const s = await reader.post("/obligations", legacyBody());
    expect(s.status).toBe(403);
    expect(s.body.error.code).toBe("insufficient_scope");
    const viewer = await userWith(org, "viewer");
    const v = await (await signedIn(viewer.email)).post("/obligations", legacyBody());
    expect(v.status).toBe(403);
    expect(v.body.error.code).toBe("insufficient_permission");
    const member = await userWith(org, "member");
    const m = await (await signedIn(member.email)).post("/obligations", legacyBody());
    expect(m.status).toBe(201);
    const d = await org.api.get(`/obligations/${m.body.invoice.id}`);
    expect(d.body.audit_trail[0].actor).toEqual({ type: "user", id: member.userId, label: member.email });
  });
});

describe("GET /obligations and /obligations/{id}", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  const ids: string[] = [];
  beforeAll(async () => {
    org = await newOrg("Lister Ltd");
    other = await newOrg("Someone Else");
    for (let i = 0; i < 5; i++) ids.push((await registerObligation(org.api, legacyBody({ amount_minor: String(1000 + i) }))).invoice.id);
  });

  it("lists projections newest first with a limit/offset envelope", async () => {
    const r = await org.api.get("/obligations");
    expect(r.status).toBe(200);
    const list = ZObligationList.parse(r.body);
    expect(list.limit).toBe(50);
    expect(list.offset).toBe(0);
    expect(list.items.map((o) => o.id)).toEqual([...ids].reverse());
    const p1 = await org.api.get("/obligations?limit=2");
    const p2 = await org.api.get("/obligations?limit=2&offset=2");
    const p3 = await org.api.get("/obligations?limit=2&offset=4");
    expect([p1, p2, p3].flatMap((p) => p.body.items.map((o: any) => o.id))).toEqual([...ids].reverse());
    expect(p2.body).toMatchObject({ limit: 2, offset: 2 });
    expect((await org.api.get("/obligations?offset=10")).body.items).toEqual([]);
    // another organization sees none of them
    expect((await other.api.get("/obligations")).body.items).toEqual([]);
  });

  it("validates limit and offset", async () => {
    for (const q of ["limit=0", "limit=101", "limit=abc", "offset=-1", "limit=1.5", "unknown=1"]) {
      const r = await org.api.get(`/obligations?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toMatch(/^query\./);
    }
    expect((await org.api.get("/obligations?limit=100")).status).toBe(200);
  });

  it("returns the detail with audit trail, documents, messages and the payment request view", async () => {
    const r = await org.api.get(`/obligations/${ids[0]}`);
    expect(r.status).toBe(200);
    const d = ZObligationDetail.parse(r.body);
    expect(d.id).toBe(ids[0]);
    expect(d.amount_minor).toBe("1000");
    expect(d.audit_trail).toHaveLength(1);
    expect(d.audit_trail[0]).toMatchObject({
      event_type: "obligation.registered",
      actor: { type: "api_key", label: "API key" },
      detail: { reference: d.reference },
    });
    expect(d.documents).toEqual([]);
    expect(d.messages).toEqual([]);
    expect(d.payment_request).toMatchObject({ obligation_id: ids[0], revoked: false });
  });

  it("is 404 for unknown, malformed and foreign ids; reads need obligations:read", async () => {
    for (const path of [`/obligations/${randomUUID()}`, "/obligations/not-a-uuid", "/obligations/123"]) {
      const r = await org.api.get(path);
      expect(r.status, path).toBe(404);
      expect(r.body).toEqual({ error: { code: "not_found", message: expect.any(String) } });
    }
    const foreign = await other.api.get(`/obligations/${ids[0]}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
    const writer = await apiKeyWith(org, ["obligations:write"]);
    expect((await writer.get("/obligations")).status).toBe(403);
    expect((await writer.get(`/obligations/${ids[0]}`)).body.error.code).toBe("insufficient_scope");
    const viewer = await userWith(org, "viewer");
    const v = await signedIn(viewer.email);
    expect((await v.get(`/obligations/${ids[0]}`)).status).toBe(200);
    expect((await v.get("/obligations")).status).toBe(200);
  });

  it("serves every obligation endpoint in the OpenAPI document", async () => {
    const r = await fetch(`${baseUrl()}/api/v1/openapi.json`);
    const doc = await r.json();
    expect(doc.paths["/obligations"].post.operationId).toBe("registerObligation");
    expect(doc.paths["/obligations"].get.operationId).toBe("listObligations");
    expect(doc.paths["/obligations/{id}"].get.operationId).toBe("getObligation");
    expect(doc.paths["/obligations"].post.requestBody.content["application/json"].example).toBeTruthy();
  });
});
