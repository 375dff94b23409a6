import { describe, expect, it } from "vitest";
import { indexPool, relevant } from "@/lib/reconciliation/candidates";
import type { Candidate, PaymentFacts } from "@/lib/reconciliation/engine";
import { tokenize } from "@/lib/reconciliation/text";

const ORG = "00000000-0000-4000-8000-000000000001";
const uuid = (n: number) => `00000000-0000-4000-9000-${n.toString(16).padStart(12, "0")}`;

function candidate(n: number, o: Partial<Candidate> = {}): Candidate {
  return {
    id: uuid(n),
    organizationId: ORG,
    reference: `OBL-${String(n).padStart(10, "0")}`,
    paymentReference: "",
    invoiceNumber: `INV-${n}`,
    organizationRole: "creditor",
    currency: "EUR",
    status: "OPEN",
    amountMinor: 1000n + BigInt(n),
    allocatedMinor: 0n,
    version: 1,
    debtorName: `Northwind Branch ${n} Ltd`,
    creditorName: "Us",
    deadline: "2026-11-30",
    expectedPaymentDate: "",
    reportedPaymentDate: "",
    reportedAmountMinor: null,
    reportedReference: "",
    dueNowMinor: null,
    termAmounts: [],
    ...o,
  };
}

const payment = (o: Partial<PaymentFacts>): PaymentFacts => ({
  id: uuid(999_999),
  organizationId: ORG,
  currency: "EUR",
  direction: "incoming",
  amountMinor: 5n,
  allocatedMinor: 0n,
  payerName: "NORTHWIND BRANCH 7",
  remittance: "",
  receivedOn: "2026-11-20",
  ...o,
});

// Found by the import benchmark (scripts/bench/reconciliation-import.ts): every candidate of
// a whole file was filed under its counterparty key, so each payment whose payer shares the
// first four letters with many obligations was handed all of them (about 250 per payment in
// a 10,000-transaction import, 2.5 million analyses), and more than the single-payment
// narrowing of GET /payments/{id}/suggestions.
describe("candidate pool of an import", () => {
  it("a payment gets, under its payer's key, only what the counterparty look-up found; its own identifiers and amount still find the rest", () => {
    const pool = Array.from({ length: 300 }, (_, i) => candidate(i + 1)); // found by other payments' invoice numbers or amounts
    const byName = new Set(pool.slice(0, 24).map((c) => `incoming:${c.id}`)); // the look-up's at most 24 per key
    const index = indexPool(pool, byName);
    const p = payment({ remittance: "Invoice INV-200", amountMinor: 1000n + 250n });
    const got = relevant(p, index, tokenize(p.remittance)).map((c) => c.id);
    expect(got.length).toBe(26);
    expect(got).toEqual(expect.arrayContaining([uuid(200), uuid(250), ...pool.slice(0, 24).map((c) => c.id)]));
    // An outgoing payment never gets incoming-side name candidates.
    expect(relevant(payment({ direction: "outgoing" }), index, [])).toEqual([]);
    // Without name look-up results nothing is taken by the payer's key alone.
    expect(relevant(payment({}), indexPool(pool, new Set()), [])).toEqual([]);
  });
});
