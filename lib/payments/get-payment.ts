import type { Tx } from "@/lib/db/client";
import type { TPayment } from "@/lib/schemas/payments";
import { loadPayment, toPaymentView } from "@/lib/payments/view";

// GET /payments/{id}: the payment with every accepted allocation (oldest first).
export type GetPaymentInput = { organizationId: string; paymentId: string };

export async function getPayment(tx: Tx, input: GetPaymentInput): Promise<TPayment> {
  return toPaymentView(await loadPayment(tx, { organizationId: input.organizationId, paymentId: input.paymentId }));
}
