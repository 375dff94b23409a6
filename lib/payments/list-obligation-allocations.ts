import type { Tx } from "@/lib/db/client";
import { fromDate } from "@/lib/schemas/common";

export type ObligationAllocation = {
  id: string;
  payment_id: string;
  amount_minor: string;
  created_at: string;
  reversed_at: string | null;
  reversal_reason: string;
  payment: { received_on: string; payer_name: string; reference: string; amount_minor: string; currency: string };
};

// The accepted allocations of payments to one obligation, oldest first: where its
// allocated amount comes from.
export type ListObligationAllocationsInput = { organizationId: string; obligationId: string };

export async function listObligationAllocations(tx: Tx, input: ListObligationAllocationsInput): Promise<ObligationAllocation[]> {
  const { organizationId, obligationId } = input;
  const rows = await tx.paymentAllocation.findMany({
    where: { organizationId, obligationId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { payment: { select: { receivedOn: true, payerName: true, reference: true, amountMinor: true, currency: true } } },
  });
  return rows.map((a) => ({
    id: a.id,
    payment_id: a.paymentId,
    amount_minor: a.amountMinor.toString(),
    created_at: a.createdAt.toISOString(),
    reversed_at: a.reversedAt ? a.reversedAt.toISOString() : null,
    reversal_reason: a.reversalReason,
    payment: {
      received_on: fromDate(a.payment.receivedOn),
      payer_name: a.payment.payerName,
      reference: a.payment.reference,
      amount_minor: a.payment.amountMinor.toString(),
      currency: a.payment.currency,
    },
  }));
}
