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
