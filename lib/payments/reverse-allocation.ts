import type { Tx } from "@/lib/db/client";
import { later, query } from "@/lib/db/query";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { isCheckViolation, isWriteConflict } from "@/lib/db/errors";
import type { TPayment, TPaymentAllocationResult, TReverseEntry } from "@/lib/schemas/payments";
import { invalidState, mutateObligation } from "@/lib/obligations/mutate-obligation";
import { settledStatus } from "@/lib/obligations/settled-status";
import { lockPayment, toAllocationItem, toPaymentView } from "@/lib/payments/view";

export type ReverseAllocationInput = { organizationId: string; paymentId: string; allocationId: string; principal: Principal; body: TReverseEntry };

// POST /payments/{id}/allocations/{allocation}/reverse: a wrong allocation is undone. It stays
// in the payment's history with reversed_at and the reason; the payment's and the
// obligation's allocated amounts drop by it and the obligation's status is the one it has
// without it (lib/obligations/settled-status.ts; the one way back from RECONCILED). Lock
// order as in allocatePayment (the payment, then the obligation under its version check), so
// a reversal racing an allocation or a credit of the same obligation is one of the two
// winning and the other 409. Event `payment.allocation_reversed`.
export async function reverseAllocation(tx: Tx, input: ReverseAllocationInput): Promise<TPaymentAllocationResult> {
  try {
    return await reverse(tx, input);
  } catch (err) {
    if (isWriteConflict(err))
      throw new AppError("version_conflict", "the reversal conflicted with a concurrent change and was rolled back; reload and retry", { cause: err });
    if (isCheckViolation(err)) throw new AppError("invalid_state", "the reversal would leave the settled amounts inconsistent", { cause: err });
    throw err;
  }
}

async function reverse(tx: Tx, input: ReverseAllocationInput): Promise<TPaymentAllocationResult> {
  const { organizationId, body } = input;
  const p = await lockPayment(tx, { organizationId, paymentId: input.paymentId });
  const a = p.allocations.find((x) => x.id === input.allocationId);
  if (!a) throw new AppError("not_found", "allocation not found");
  if (a.reversedAt) throw invalidState(`the allocation was already reversed on ${a.reversedAt.toISOString()}`);

  const reversedAt = new Date();
  const after = { ...a, reversedAt, reversalReason: body.reason };
  const paymentAfter: TPayment = toPaymentView({
    ...p,
    allocatedMinor: p.allocatedMinor - a.amountMinor,
    updatedAt: reversedAt,
    allocations: p.allocations.map((x) => (x.id === a.id ? after : x)),
  });
  const result = await mutateObligation(tx, {
    organizationId,
    obligationId: a.obligationId,
    expectedVersion: body.expected_version,
    principal: input.principal,
    eventType: "payment.allocation_reversed",
    paymentId: p.id,
    apply: async (o) => {
      // The allocation marked reversed and the payment's allocated amount lowered, in one
      // statement sent with the obligation's update.
      await later(
        tx,
        query(tx)
          .with("reversed", (w) =>
            w
              .updateTable("payment_allocations")
              .set({ reversed_at: reversedAt, reversal_reason: body.reason })
              .where("id", "=", a.id)
              .where("organization_id", "=", organizationId)
              .where("payment_id", "=", p.id)
              .where("reversed_at", "is", null)
              .returning("amount_minor"),
          )
          .updateTable("payments as p")
          .from("reversed as r")
          .set((eb) => ({ allocated_minor: eb("p.allocated_minor", "-", eb.ref("r.amount_minor")), updated_at: reversedAt }))
          .where("p.id", "=", p.id)
          .where("p.organization_id", "=", organizationId),
      );
      return {
        allocatedMinor: { increment: -a.amountMinor },
        status: await settledStatus(tx, { obligation: o, allocated: o.allocatedMinor - a.amountMinor }),
      };
    },
    eventData: () => ({ payment: paymentAfter }),
    detail: (o) => ({
      payment_id: p.id,
      allocation_id: a.id,
      amount_minor: a.amountMinor.toString(),
      reason: body.reason,
      allocated_minor_before: o.allocatedMinor.toString(),
    }),
  });
  return {
    ...result,
    // biome-ignore lint/style/noNonNullAssertion: mutateObligation returns the obligation it changed
    obligation: result.obligation!,
    allocation: { ...toAllocationItem(after), payment_id: p.id },
    payment: paymentAfter,
  };
}
