import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Api } from "./api";

// Helpers for tests that need obligations (registered over HTTP like any client would).
export const dayOffset = (days: number): string => {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

// The earlier, narrower registration body (still valid).
export const legacyBody = (overrides: Record<string, unknown> = {}) => ({
  obligation_type: "invoice",
  external_reference: { namespace: "erp", id: `INV-${randomUUID().slice(0, 8)}` },
  debtor: { name: "Northwind Traders", email: "ap@northwind.example" },
  amount_minor: "125000",
  currency: "EUR",
  deadline: dayOffset(30),
  business_context: { invoice_number: `INV-${randomUUID().slice(0, 6)}`, description: "Consulting, October" },
  ...overrides,
});

// A milestone contract of 1,000.00: 20 % at once, 30 % ten days after the condition
// "delivery", 50 % on "acceptance". `firstDue` is the first term's due rule (due at once by
// default); `overrides` as in legacyBody.
export const milestoneBody = (firstDue: Record<string, unknown> = { due_rule: "immediately" }, overrides: Record<string, unknown> = {}) =>
  legacyBody({
    amount_minor: "100000",
    conditions: [
      { key: "delivery", label: "Goods delivered" },
      { key: "acceptance", label: "Customer acceptance" },
    ],
    payment_terms: [
      { sequence: 1, amount_type: "percentage", percentage_basis_points: 2000, trigger_type: "immediately", ...firstDue },
      {
        sequence: 2,
        amount_type: "percentage",
        percentage_basis_points: 3000,
        trigger_type: "condition_satisfied",
        condition_key: "delivery",
        due_rule: "days_after_trigger",
        due_days: 10,
      },
      {
        sequence: 3,
        amount_type: "percentage",
        percentage_basis_points: 5000,
        trigger_type: "condition_satisfied",
        condition_key: "acceptance",
        due_rule: "immediately",
      },
    ],
    ...overrides,
  });

export async function registerObligation(api: Api, body: Record<string, unknown> = legacyBody()) {
  const r = await api.post("/obligations", body);
  expect(r.status, r.text).toBe(201);
  return r.body as { invoice: any; obligation: any; payment_request: any; operation_id: string; event_type: string };
}

export async function createInvoice(api: Api, overrides: Record<string, unknown> = {}) {
  const r = await api.post("/invoices", {
    invoice_number: `INV-${randomUUID().slice(0, 8)}`,
    amount_minor: "99000",
    currency: "USD",
    due_date: dayOffset(14),
    recipient: { name: "Ada Lovelace", email: "ada@example.test" },
    ...overrides,
  });
  expect(r.status, r.text).toBe(201);
  return r.body as { invoice: any; obligation: any; payment_request: any; operation_id: string; event_type: string };
}
