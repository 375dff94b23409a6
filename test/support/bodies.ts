import { randomUUID } from "node:crypto";

// A valid registration body (ZRegisterObligation).
export function registration(overrides: Record<string, unknown> = {}) {
  const n = randomUUID().slice(0, 8);
  return {
    obligation_type: "invoice",
    external_reference: { namespace: "erp", id: `INV-${n}` },
    debtor: { name: "Bob's Bakery", email: "ap@bobs.example" },
    amount_minor: "125000",
    currency: "EUR",
    deadline: "2026-12-31",
    business_context: { invoice_number: `INV-${n}`, description: "Catering, November" },
    ...overrides,
  };
}
