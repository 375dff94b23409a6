import type { Tx } from "@/lib/db/client";
import { query, later } from "@/lib/db/query";
import type { Principal } from "@/lib/auth/principal";
import { recordEvent } from "@/lib/events/record-event";
import type { TPayment } from "@/lib/schemas/payments";
import { invalidState } from "@/lib/obligations/mutate-obligation";
import { lockPayment, toPaymentView } from "@/lib/payments/view";

export type RestorePaymentInput = { organizationId: string; paymentId: string; principal: Principal };

// POST /payments/{id}/restore: a dismissed payment goes back to the queue of unallocated
// payments (409 invalid_state when it is not dismissed). Event `payment.restored`.
export async function restorePayment(tx: Tx, input: RestorePaymentInput): Promise<TPayment> {
  const { organizationId } = input;
  const p = await lockPayment(tx, { organizationId, paymentId: input.paymentId });
  if (!p.dismissedAt) throw invalidState("the payment is not dismissed");
  const now = new Date();
  await later(
    tx,
    query(tx)
      .updateTable("payments")
      .set({ dismissed_at: null, dismissal_reason: "", dismissal_note: "", updated_at: now })
      .where("id", "=", p.id)
      .where("organization_id", "=", organizationId),
  );
  const payment = toPaymentView({ ...p, dismissedAt: null, dismissalReason: "", dismissalNote: "", updatedAt: now });
  await recordEvent(tx, {
    organizationId,
    type: "payment.restored",
    principal: input.principal,
    paymentId: p.id,
    data: { payment },
    detail: { reason: p.dismissalReason },
  });
  return payment;
}
