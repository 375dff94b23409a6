import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Api, ApiResponse } from "./api";
import { dayOffset } from "./obligations";

// Helpers for tests of payments and allocations (everything over HTTP, like a client).
export const paymentBody = (overrides: Record<string, unknown> = {}) => ({
  amount_minor: "100000",
  currency: "EUR",
  received_on: dayOffset(-1),
  ...overrides,
});

export async function recordPayment(api: Api, overrides: Record<string, unknown> = {}) {
  const r = await api.post("/payments", paymentBody(overrides));
  expect(r.status, r.text).toBe(201);
  return r.body as any;
}

// An obligation of `amount` in `currency` (the narrow registration body).
export async function newObligation(api: Api, amount: string | bigint | number, currency = "EUR") {
  const n = randomUUID().slice(0, 8);
  const r = await api.post("/obligations", {
    obligation_type: "invoice",
    external_reference: { namespace: "erp", id: `INV-${n}` },
    debtor: { name: "Northwind Traders", email: "ap@northwind.example" },
    amount_minor: String(amount),
    currency,
    deadline: dayOffset(30),
    business_context: { invoice_number: `INV-${n}` },
  });
  expect(r.status, r.text).toBe(201);
  return r.body.obligation as any;
}

export const allocate = (api: Api, paymentId: string, body: Record<string, unknown>, idempotencyKey?: string) =>
  api.post(`/payments/${paymentId}/allocations`, body, idempotencyKey ? { idempotencyKey } : {});

// What a real client does: allocate with the version it knows; on 409 version_conflict
// re-read the obligation and try again with its current version. Returns the final
// response (200 or a refusal other than 409) and the number of attempts.
export async function allocateWithRetry(
  api: Api | (() => Api),
  paymentId: string,
  obligationId: string,
  amount: string,
  expectedVersion = 1,
  maxAttempts = 200,
): Promise<{ res: ApiResponse; attempts: number }> {
  const next = typeof api === "function" ? api : () => api;
  let version = expectedVersion;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const res = await allocate(next(), paymentId, { obligation_id: obligationId, amount_minor: amount, expected_version: version });
    if (res.status !== 409) return { res, attempts: attempt };
    expect(res.body.error.code, res.text).toBe("version_conflict");
    const o = await next().get(`/obligations/${obligationId}`);
    expect(o.status, o.text).toBe(200);
    version = o.body.version;
  }
  throw new Error(`allocation ${paymentId} -> ${obligationId} still conflicting after ${maxAttempts} attempts`);
}
