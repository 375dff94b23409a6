import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ZDeliveryDraft, ZInvoiceDetail, ZInvoiceList, ZMutationResult } from "@/lib/schemas/obligations";
import { Api, baseUrl } from "./support/api";
import { apiKeyWith, newOrg, type OrgFixture } from "./support/fixtures";
import { createInvoice, dayOffset, legacyBody, registerObligation } from "./support/obligations";

// The invoice source adapter: /invoices create, list, detail, actions and delivery draft.

describe("/invoices", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Invoicing & Co <Ltd>");
    other = await newOrg("Other Tenant");
  });

  it("POST /invoices creates an obligation of type invoice: org creditor, recipient debtor, default external reference", async () => {
    const r = await org.api.post("/invoices", {
      invoice_number: "INV-2026-0042",
      amount_minor: "1250000",
      currency: "EUR",
      due_date: dayOffset(30),
      recipient: { name: "Northwind Traders", email: "ap@northwind.example" },
      description: "Warehouse fit-out",
    });
    expect(r.status, r.text).toBe(201);
    const res = ZMutationResult.parse(r.body);
    expect(res.event_type).toBe("obligation.registered");
    expect(res.invoice).toMatchObject({
      obligation_type: "invoice",
      organization_role: "creditor",
      issuer_name: "Invoicing & Co <Ltd>",
      creditor_name: "Invoicing & Co <Ltd>",
      debtor_name: "Northwind Traders",
      debtor_email: "ap@northwind.example",
      recipient_name: "Northwind Traders",
      recipient_email: "ap@northwind.example",
      external_namespace: "invoice",
      external_id: "INV-2026-0042",
      invoice_number: "INV-2026-0042",
      description: "Warehouse fit-out",
      amount_minor: "1250000",
      due_date: dayOffset(30),
      status: "OBLIGATION_CAPTURED",
      version: 1,
    });
    expect(res.payment_request!.obligation_id).toBe(res.invoice.id);
    const withRef = await createInvoice(org.api, { external_reference: { namespace: "xero", id: "abc-1" }, recipient: { name: "No Mail Ltd" } });
    expect(withRef.invoice).toMatchObject({ external_namespace: "xero", external_id: "abc-1", recipient_email: "", debtor_email: "", description: "" });
  });

  it("validates CreateInvoice strictly", async () => {
    const good = { invoice_number: "X-1", amount_minor: "100", currency: "EUR", due_date: "2026-12-31", recipient: { name: "R" } };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, extra: 1 }, "body.extra"],
      [{ ...good, invoice_number: undefined }, "body.invoice_number"],
      [{ ...good, amount_minor: "-5" }, "body.amount_minor"],
      [{ ...good, currency: "eur" }, "body.currency"],
      [{ ...good, due_date: "31/12/2026" }, "body.due_date"],
      [{ ...good, recipient: { email: "x@y.z" } }, "body.recipient.name"],
      [{ ...good, recipient: { name: "R", phone: "1" } }, "body.recipient.phone"],
      [{ ...good, external_reference: { namespace: "x" } }, "body.external_reference.id"],
      [{ ...good, obligation_type: "invoice" }, "body.obligation_type"],
    ];
    for (const [body, path] of cases) {
      const r = await org.api.post("/invoices", body);
      expect(r.status, path).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain(path);
    }
  });

  it("GET /invoices lists invoice records only, newest first; GET /invoices/{id} is the detail with audit trail", async () => {
    const org2 = await newOrg("Lists Inc");
    const a = await createInvoice(org2.api);
    await registerObligation(org2.api, legacyBody({ obligation_type: "contractual" }));
    const b = await registerObligation(org2.api, legacyBody()); // an invoice registered via /obligations
    const c = await createInvoice(org2.api);
    const list = ZInvoiceList.parse((await org2.api.get("/invoices")).body);
    expect(list.items.map((i) => i.id)).toEqual([c.invoice.id, b.invoice.id, a.invoice.id]);
    expect(list).toMatchObject({ limit: 50, offset: 0 });
    const page = (await org2.api.get("/invoices?limit=1&offset=1")).body;
    expect(page.items.map((i: any) => i.id)).toEqual([b.invoice.id]);
    expect((await org2.api.get("/invoices?limit=0")).status).toBe(422);
    expect((await other.api.get("/invoices")).body.items).toEqual([]);

    const d = await org2.api.get(`/invoices/${a.invoice.id}`);
    expect(d.status).toBe(200);
    const detail = ZInvoiceDetail.parse(d.body);
    expect(detail).toMatchObject({ id: a.invoice.id, issuer_name: "Lists Inc", link_revoked: false });
    expect(detail.audit_trail.map((e) => e.event_type)).toEqual(["obligation.registered"]);
    expect(detail.payment_request).toEqual({ ...a.payment_request, revoked: false });
  });

  it("/invoices/{id}/... is 404 for other obligation types, unknown ids and other tenants", async () => {
    const { invoice: contract } = await registerObligation(org.api, legacyBody({ obligation_type: "payment_condition" }));
    const { invoice } = await createInvoice(org.api);
    for (const [o, id] of [
      [org, contract.id],
      [org, randomUUID()],
      [org, "INV-1"],
      [other, invoice.id],
    ] as const) {
      expect((await o.api.get(`/invoices/${id}`)).status).toBe(404);
      expect((await o.api.get(`/invoices/${id}/delivery`)).status).toBe(404);
      const act = await o.api.post(`/invoices/${id}/actions`, { action: "mark_sent", expected_version: 1 });
      expect(act.status).toBe(404);
      expect(act.body.error.code).toBe("not_found");
    }
    expect((await org.api.get(`/obligations/${contract.id}`)).body.version).toBe(1);
  });

  it("POST /invoices/{id}/actions applies issuer actions with optimistic concurrency", async () => {
    const { invoice } = await createInvoice(org.api);
    const r = await org.api.post(`/invoices/${invoice.id}/actions`, { action: "mark_sent", expected_version: 1 });
    expect(r.status).toBe(200);
    expect(r.body.invoice).toMatchObject({ status: "PAYMENT_REQUESTED", version: 2 });
    const stale = await org.api.post(`/invoices/${invoice.id}/actions`, { action: "post_message", expected_version: 1, message: "hi" });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("version_conflict");
    const refused = await org.api.post(`/invoices/${invoice.id}/actions`, { action: "mark_sent", expected_version: 2 });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe("invalid_state");
    const reissue = await org.api.post(`/invoices/${invoice.id}/actions`, { action: "reissue_link", expected_version: 2 });
    expect(reissue.status).toBe(200);
    expect(reissue.body.payment_request.hosted_url.startsWith(`${baseUrl()}/r/${reissue.body.payment_request.id}#`)).toBe(true);
  });

  it("GET /invoices/{id}/delivery drafts the message with the hosted URL, escapes HTML, and records nothing", async () => {
    const { invoice, payment_request } = await createInvoice(org.api, {
      invoice_number: "INV-<7>",
      amount_minor: "123456789",
      currency: "EUR",
      recipient: { name: 'Doe, "Jane" <script>', email: "jane@example.test" },
      description: "Line 1 <b>bold</b>\nLine 2 & more",
    });
    const r = await org.api.get(`/invoices/${invoice.id}/delivery`);
    expect(r.status).toBe(200);
    const d = ZDeliveryDraft.parse(r.body);
    expect(d.hosted_url).toBe(payment_request.hosted_url);
    expect(d.to).toBe('"Doe, \\"Jane\\" <script>" <jane@example.test>');
    expect(d.subject).toBe("Invoice INV-<7> from Invoicing & Co <Ltd>");
    expect(d.text).toContain(payment_request.hosted_url);
    expect(d.text).toContain("1,234,567.89 EUR");
    expect(d.text).toContain(invoice.due_date);
    expect(d.html).toContain(`href="${payment_request.hosted_url}"`);
    expect(d.html).not.toContain("<script>");
    expect(d.html).not.toContain("<b>");
    expect(d.html).not.toContain("<7>");
    expect(d.html).not.toContain("Co <Ltd>");
    expect(d.html).toContain("Doe, &#34;Jane&#34; &#60;script&#62;");
    expect(d.html).toContain("Invoicing &#38; Co &#60;Ltd&#62;");
    const after = (await org.api.get(`/invoices/${invoice.id}`)).body;
    expect(after.version).toBe(1);
    expect(after.status).toBe("OBLIGATION_CAPTURED");
    expect(after.audit_trail).toHaveLength(1);

    const plain = await createInvoice(org.api, { recipient: { name: "Plain Name" }, currency: "JPY", amount_minor: "5000" });
    const p = (await org.api.get(`/invoices/${plain.invoice.id}/delivery`)).body;
    expect(p.to).toBe("");
    expect(p.text).toContain("5,000 JPY");
    const simple = await createInvoice(org.api, { recipient: { name: "Ada Lovelace", email: "ada@example.test" } });
    expect((await org.api.get(`/invoices/${simple.invoice.id}/delivery`)).body.to).toBe("Ada Lovelace <ada@example.test>");
  });

  it("the delivery draft lists the payment terms' amounts and due dates (docs/obligations.md, Lifecycle)", async () => {
    const { invoice } = await registerObligation(
      org.api,
      legacyBody({
        amount_minor: "1000000",
        deadline: dayOffset(60),
        conditions: [{ key: "handover", label: "Keys handed over" }],
        payment_terms: [
          {
            sequence: 1,
            label: "Deposit",
            amount_type: "fixed",
            fixed_amount_minor: "300000",
            trigger_type: "immediately",
            due_rule: "specific_date",
            due_date: dayOffset(14),
          },
          { sequence: 2, amount_type: "fixed", fixed_amount_minor: "500000", trigger_type: "immediately", due_rule: "specific_date", due_date: dayOffset(60) },
          {
            sequence: 3,
            amount_type: "fixed",
            fixed_amount_minor: "200000",
            trigger_type: "condition_satisfied",
            condition_key: "handover",
            due_rule: "days_after_trigger",
            due_days: 10,
          },
        ],
      }),
    );
    const d = ZDeliveryDraft.parse((await org.api.get(`/invoices/${invoice.id}/delivery`)).body);
    expect(d.text).toContain("for 10,000.00 EUR, payable in 3 parts:");
    expect(d.text).toContain(`- Deposit: 3,000.00 EUR due on ${dayOffset(14)}`);
    expect(d.text).toContain(`- Part 2: 5,000.00 EUR due on ${dayOffset(60)}`);
    expect(d.text).toContain("- Part 3: 2,000.00 EUR payable once “Keys handed over” is done, due 10 days later");
    expect(d.text).not.toContain(`10,000.00 EUR, due on ${dayOffset(60)}`);
    expect(d.html).toContain(`<li>Deposit: 3,000.00 EUR due on ${dayOffset(14)}</li>`);
    // Without terms: the amount and the deadline, as before.
    const plain = await createInvoice(org.api, { amount_minor: "125000", currency: "EUR", due_date: dayOffset(21) });
    expect((await org.api.get(`/invoices/${plain.invoice.id}/delivery`)).body.text).toContain(`for 1,250.00 EUR, due on ${dayOffset(21)}.`);
  });

  it("the delivery draft of a revoked link is 410; reads need obligations:read", async () => {
    const { invoice } = await createInvoice(org.api);
    expect((await org.api.post(`/invoices/${invoice.id}/actions`, { action: "revoke_link", expected_version: 1 })).status).toBe(200);
    const r = await org.api.get(`/invoices/${invoice.id}/delivery`);
    expect(r.status).toBe(410);
    expect(r.body.error.code).toBe("payment_request_revoked");
    const writer = await apiKeyWith(org, ["obligations:write"]);
    expect((await writer.get(`/invoices/${invoice.id}`)).status).toBe(403);
    expect((await writer.get("/invoices")).status).toBe(403);
    const anon = new Api(baseUrl());
    expect((await anon.get(`/invoices/${invoice.id}/delivery`)).status).toBe(401);
    expect((await anon.post("/invoices", {})).status).toBe(401);
  });

  it("the OpenAPI document lists every /invoices and /obligations endpoint with examples", async () => {
    const doc = (await new Api(baseUrl()).get("/openapi.json")).body;
    const expected = [
      "post /invoices",
      "get /invoices",
      "get /invoices/{id}",
      "post /invoices/{id}/actions",
      "get /invoices/{id}/delivery",
      "post /invoices/{id}/documents",
      "get /invoices/{id}/documents/{document}",
      "post /obligations",
      "get /obligations",
      "get /obligations/{id}",
      "post /obligations/{id}/actions",
      "post /obligations/{id}/conditions/{condition}/satisfy",
      "post /obligations/{id}/documents",
      "get /obligations/{id}/documents/{document}",
      "get /obligations/{id}/payment-request",
    ];
    for (const e of expected) {
      const [m, p] = e.split(" ");
      const op = doc.paths[p]?.[m];
      expect(op, e).toBeTruthy();
      const ok = Object.entries(op.responses).find(([s]) => s.startsWith("2"))![1] as any;
      if (ok.content?.["application/json"]) expect(ok.content["application/json"].example, e).toBeTruthy();
      if (op.requestBody?.content?.["application/json"]) expect(op.requestBody.content["application/json"].example, e).toBeTruthy();
    }
    expect(doc.paths["/invoices/{id}/documents/{document}"].get.responses["200"].content["application/octet-stream"]).toBeTruthy();
    expect(doc.paths["/obligations/{id}/documents"].post.requestBody.content["multipart/form-data"].schema.required).toEqual(["expected_version", "file"]);
  });
});
