import { paymentReferenceFor } from "@/lib/payment-references/rf";
import type { Candidate, PaymentFacts } from "@/lib/reconciliation/engine";

// The engine's inputs for its unit tests: an open EUR obligation and an incoming payment of
// one organization, each test overriding what it is about.

export const ORG = "00000000-0000-4000-8000-000000000001";
export const uuid = (n: number) => `00000000-0000-4000-9000-${n.toString(16).padStart(12, "0")}`;

// Obligation number n: reference OBL-… with its RF payment reference, invoice INV-n0.
export function candidateFacts(n: number, o: Partial<Candidate> = {}): Candidate {
  const reference = o.reference ?? `OBL-${n.toString(36).toUpperCase().padStart(10, "Q")}`;
  return {
    id: uuid(n),
    organizationId: ORG,
    reference,
    paymentReference: paymentReferenceFor(reference),
    invoiceNumber: `INV-${n}0`,
    organizationRole: "creditor",
    currency: "EUR",
    status: "OPEN",
    amountMinor: 10000n,
    allocatedMinor: 0n,
    version: 1,
    debtorName: "Northwind Traders Ltd",
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

export const paymentFacts = (o: Partial<PaymentFacts> = {}): PaymentFacts => ({
  id: uuid(999_999),
  organizationId: ORG,
  currency: "EUR",
  direction: "incoming",
  amountMinor: 10000n,
  allocatedMinor: 0n,
  payerName: "NORTHWIND TRADERS",
  remittance: "",
  receivedOn: "2026-11-28",
  ...o,
});
