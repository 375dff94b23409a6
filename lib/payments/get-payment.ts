import type { Tx } from "@/lib/db";
import type { TPayment } from "@/lib/schemas/payments";
import { loadPayment, toPaymentView } from "@/lib/payments/view";

// GET /payments/{id}: the payment with every accepted allocation (oldest first).
export async function getPayment(tx: Tx, organizationId: string, paymentId: string): Promise<TPayment> {
  return toPaymentView(await loadPayment(tx, organizationId, paymentId));
}
