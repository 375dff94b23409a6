import type { Tx } from "@/lib/db/client";
import { query, later } from "@/lib/db/query";
import type { Principal } from "@/lib/auth/principal";
import { recordEvent } from "@/lib/events/record-event";
import type { TDismissPayment, TPayment } from "@/lib/schemas/payments";
import { invalidState } from "@/lib/obligations/mutate-obligation";
import { lockPayment, toPaymentView } from "@/lib/payments/view";

export type DismissPaymentInput = { organizationId: string; paymentId: string; principal: Principal; body: TDismissPayment };

// POST /payments/{id}/dismiss: a bank line that is not a receivable (a bank charge, an
// internal transfer, a refund...) leaves the queue of unallocated payments. Only with
// nothing allocated (409 invalid_state; the CHECK payments_dismissed_unallocated holds it in
// the database too). The payment row is locked, as allocations lock it, so a dismissal and
// an allocation of one payment never both land. Event `payment.dismissed`.
export async function dismissPayment(tx: Tx, input: DismissPaymentInput): Promise<TPayment> {
  const { organizationId, body } = input;
  const p = await lockPayment(tx, { organizationId, paymentId: input.paymentId });
  if (p.dismissedAt) throw invalidState("the payment is already dismissed");
  if (p.allocatedMinor > 0n) throw invalidState(`the payment has ${p.allocatedMinor} allocated; reverse its allocations before dismissing it`);
  const now = new Date();
  const note = body.note ?? "";
  await later(
    tx,
    query(tx)
      .updateTable("payments")
      .set({ dismissed_at: now, dismissal_reason: body.reason, dismissal_note: note, updated_at: now })
      .where("id", "=", p.id)
      .where("organization_id", "=", organizationId),
  );
  const payment = toPaymentView({ ...p, dismissedAt: now, dismissalReason: body.reason, dismissalNote: note, updatedAt: now });
  await recordEvent(tx, {
    organizationId,
    type: "payment.dismissed",
    principal: input.principal,
    paymentId: p.id,
    data: { payment },
    detail: { reason: body.reason, note },
  });
  return payment;
}
