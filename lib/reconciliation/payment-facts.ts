import type { Tx } from "@/lib/db/client";
import { fromDate } from "@/lib/schemas/common";
import type { PaymentFacts } from "@/lib/reconciliation/engine";

type PaymentRow = {
  id: string;
  organizationId: string;
  currency: string;
  direction: string;
  amountMinor: bigint;
  allocatedMinor: bigint;
  payerName: string;
  reference: string;
  note: string;
  receivedOn: Date;
};

// What the engine reads of a payment. The remittance is the payment's reference plus, for
// a payment imported from a bank statement, the statement's full remittance text (the
// payment's `reference` keeps the structured reference alone when there is one).
export function toFacts(p: PaymentRow, statementRemittance = ""): PaymentFacts {
  const parts = [p.reference];
  if (statementRemittance && statementRemittance !== p.reference) parts.push(statementRemittance);
  return {
    id: p.id,
    organizationId: p.organizationId,
    currency: p.currency,
    direction: p.direction === "outgoing" ? "outgoing" : "incoming",
    amountMinor: p.amountMinor,
    allocatedMinor: p.allocatedMinor,
    payerName: p.payerName,
    remittance: parts.join(" ").trim(),
    receivedOn: fromDate(p.receivedOn),
  };
}

export type StatementRemittanceInput = { organizationId: string; paymentId: string };

export async function statementRemittance(tx: Tx, { organizationId, paymentId }: StatementRemittanceInput): Promise<string> {
  const item = await tx.bankStatementItem.findFirst({ where: { organizationId, paymentId }, select: { remittance: true } });
  return item?.remittance ?? "";
}
