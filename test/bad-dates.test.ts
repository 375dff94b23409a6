import { beforeAll, describe, expect, it } from "vitest";
import type { ApiResponse } from "./support/api";
import { baseUrl } from "./support/api";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { dayOffset, legacyBody, milestoneBody, registerObligation } from "./support/obligations";
import { paymentBody } from "./support/payments";
import { RecipientClient, requestIdOf, tokenOf } from "./support/recipient";

// Dates outside the accepted years (1900-2999, lib/schemas/common.ts) are 422
// validation_failed naming the field, on every path that stores a date: PostgreSQL has no
// year 0 (a 500 before), and a date near 9999 plus a term's due_days could not be written
// by the terms engine (a 500 before). Everything over real HTTP.

const OUT_OF_RANGE = ["0000-01-01", "1899-12-31", "3000-01-01", "9999-12-31"];

function refused(r: ApiResponse, field: string, what: string) {
  expect(r.status, `${what}: ${r.text}`).toBe(422);
  expect(r.body.error.code).toBe("validation_failed");
  expect(r.body.error.message).toContain(field);
  expect(r.body.error.message).toContain("1900-01-01 to 2999-12-31");
}

const daysAfter = (trigger_date: string, due_days: number) => ({
  payment_terms: [
    {
      sequence: 1,
      amount_type: "percentage",
      percentage_basis_points: 10000,
      trigger_type: "specific_date",
      trigger_date,
      due_rule: "days_after_trigger",
      due_days,
    },
  ],
});

describe("dates outside 1900-2999", () => {
  let org: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Calendar Ltd");
  });

  it("POST /obligations: deadline, trigger_date, due_date and a condition's satisfied_on", async () => {
    for (const d of OUT_OF_RANGE) {
      refused(await org.api.post("/obligations", legacyBody({ deadline: d })), "body.deadline", d);
      refused(await org.api.post("/obligations", legacyBody(daysAfter(d, 1))), "body.payment_terms.0.trigger_date", d);
      refused(
        await org.api.post(
          "/obligations",
          legacyBody({
            payment_terms: [
              { sequence: 1, amount_type: "percentage", percentage_basis_points: 10000, trigger_type: "immediately", due_rule: "specific_date", due_date: d },
            ],
          }),
        ),
        "body.payment_terms.0.due_date",
        d,
      );
      refused(
        await org.api.post(
          "/obligations",
          milestoneBody(undefined, {
            conditions: [
              { key: "delivery", label: "D", status: "satisfied", satisfied_on: d },
              { key: "acceptance", label: "A" },
            ],
          }),
        ),
        "body.conditions.0.satisfied_on",
        d,
      );
    }
    expect((await org.api.get("/obligations")).body.items).toEqual([]);
  });

  it("the largest date plus the largest due_days is still a date: 201 with payable_on in year 3099", async () => {
    const { invoice } = await registerObligation(org.api, legacyBody(daysAfter("2999-12-31", 36500)));
    expect(invoice.payment_terms[0]).toMatchObject({ triggered_on: "2999-12-31", payable_on: "3099-12-07" });
    // a term read back (computed dates included) is a valid input again
    const again = await org.api.post("/obligations", legacyBody({ payment_terms: invoice.payment_terms.map(({ id, ...t }: any) => t) }));
    expect(again.status, again.text).toBe(201);
    expect(again.body.invoice.payment_terms[0].payable_on).toBe("3099-12-07");
  });

  it("POST /obligations/{id}/conditions/{c}/satisfy: satisfied_on, with a days-after-trigger term on the condition", async () => {
    const { invoice } = await registerObligation(org.api, milestoneBody());
    const delivery = invoice.conditions[0];
    for (const d of OUT_OF_RANGE) {
      refused(
        await org.api.post(`/obligations/${invoice.id}/conditions/${delivery.id}/satisfy`, { satisfied_on: d, expected_version: 1 }),
        "body.satisfied_on",
        d,
      );
    }
    const ok = await org.api.post(`/obligations/${invoice.id}/conditions/${delivery.id}/satisfy`, { satisfied_on: "2999-12-31", expected_version: 1 });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.invoice.payment_terms[1]).toMatchObject({ triggered_on: "2999-12-31", payable_on: "3000-01-10" });
  });

  it("POST /obligations/{id}/actions set_expected_payment_date and POST /invoices due_date", async () => {
    const { invoice } = await registerObligation(org.api);
    for (const d of OUT_OF_RANGE) {
      refused(
        await org.api.post(`/obligations/${invoice.id}/actions`, { action: "set_expected_payment_date", expected_version: 1, expected_payment_date: d }),
        "body.expected_payment_date",
        d,
      );
      refused(
        await org.api.post("/invoices", { invoice_number: "INV-0", amount_minor: "100", currency: "EUR", due_date: d, recipient: { name: "Ada" } }),
        "body.due_date",
        d,
      );
    }
    expect((await org.api.get(`/obligations/${invoice.id}`)).body.version).toBe(1);
  });

  it("POST /payments received_on", async () => {
    for (const d of OUT_OF_RANGE) refused(await org.api.post("/payments", paymentBody({ received_on: d })), "body.received_on", d);
    const ok = await org.api.post("/payments", paymentBody({ received_on: "1900-01-01" }));
    expect(ok.status, ok.text).toBe(201);
  });

  it("recipient share_dates and report_payment", async () => {
    const r = await registerObligation(org.api, legacyBody({ deadline: dayOffset(30) }));
    const hosted = r.payment_request.hosted_url as string;
    const ctx = `/recipient/contexts/${requestIdOf(hosted)}`;
    const c = new RecipientClient(baseUrl());
    const s = await c.post(`${ctx}/session`, { token: tokenOf(hosted) });
    expect(s.status, s.text).toBe(200);
    const version = (await org.api.get(`/obligations/${r.invoice.id}`)).body.version;
    for (const d of OUT_OF_RANGE) {
      refused(await c.post(`${ctx}/actions`, { action: "share_dates", expected_version: version, expected_payment_date: d }), "body.expected_payment_date", d);
      refused(
        await c.post(`${ctx}/actions`, { action: "report_payment", expected_version: version, reported_payment_date: d }),
        "body.reported_payment_date",
        d,
      );
    }
    expect((await org.api.get(`/obligations/${r.invoice.id}`)).body.version).toBe(version);
  });
});
