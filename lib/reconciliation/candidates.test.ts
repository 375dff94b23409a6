import { describe, expect, it } from "vitest";
import { indexPool, relevant } from "@/lib/reconciliation/candidates";
import type { Candidate, PaymentFacts } from "@/lib/reconciliation/engine";
import { tokenize } from "@/lib/reconciliation/text";
import { candidateFacts, paymentFacts, uuid } from "@/lib/reconciliation/engine-facts.fixture";

const candidate = (n: number, o: Partial<Candidate> = {}): Candidate =>
  candidateFacts(n, {
    reference: `OBL-${String(n).padStart(10, "0")}`,
    paymentReference: "",
    invoiceNumber: `INV-${n}`,
    amountMinor: 1000n + BigInt(n),
    debtorName: `Northwind Branch ${n} Ltd`,
    ...o,
  });

const payment = (o: Partial<PaymentFacts>): PaymentFacts => paymentFacts({ amountMinor: 5n, payerName: "NORTHWIND BRANCH 7", receivedOn: "2026-11-20", ...o });

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
