import type { Tx } from "@/lib/db/client";
import { statement } from "@/lib/db/query";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { TAllocatePayment, TPayment, TPaymentAllocationResult } from "@/lib/schemas/payments";
import { invalidState, mutateObligation } from "@/lib/obligations/mutate-obligation";
import { applyCredit } from "@/lib/obligations/apply-credit";
import { lockPayment, toPaymentView } from "@/lib/payments/view";
import { isCheckViolation, isWriteConflict } from "@/lib/db/errors";

export type AllocatePaymentInput = { organizationId: string; paymentId: string; principal: Principal; body: TAllocatePayment };

// The allocation row, and the payment's raise: two statements sent together (not one with a
// writing CTE: Citus routes neither an INSERT in a CTE nor around one, it runs the CTE as a
// step of its own through the coordinator; each of these is one shard).
type AllocationValues = { id: string; org: string; payment: string; obligation: string; amount: bigint; at: Date };
const insertAllocation = statement((q, p: AllocationValues) =>
  q.insertInto("payment_allocations").values({
    id: p.id,
    organization_id: p.org,
    payment_id: p.payment,
    obligation_id: p.obligation,
    amount_minor: p.amount,
    created_at: p.at,
  }),
);
const raisePayment = statement((q, p: Pick<AllocationValues, "org" | "payment" | "amount" | "at">) =>
  q
    .updateTable("payments")
    .set((eb) => ({ allocated_minor: eb("allocated_minor", "+", p.amount), updated_at: p.at }))
    .where("id", "=", p.payment)
    .where("organization_id", "=", p.org),
);

// POST /payments/{id}/allocations: allocates part of a payment to an obligation, atomically
// in the caller's transaction.
//
// Lock order is fixed — the payment row first (SELECT ... FOR UPDATE), then the obligation
// row (mutateObligation's guarded version bump) — and a transaction touches exactly one of
// each, so concurrent allocations queue instead of deadlocking. The bounds hold in the
// database: the payment is locked while its remaining amount is checked and raised (in the
// statement that writes the allocation), the obligation's change only lands if its version
// is still the expected one, and CHECK constraints on both rows (allocated between 0 and
// amount) are the last line. A deadlock or serialization failure that still happens is 409
// version_conflict (everything rolled back; reload and retry), never a 500.
//
// Order of refusals: 404 payment, 404 obligation (unknown or another organization's),
// 409 version_conflict, 422 currency_mismatch, 422 direction_mismatch,
// 422 allocation_exceeds_remaining.
export async function allocatePayment(tx: Tx, input: AllocatePaymentInput): Promise<TPaymentAllocationResult> {
  try {
    return await allocate(tx, input);
  } catch (err) {
    if (isWriteConflict(err)) {
      throw new AppError("version_conflict", "the allocation conflicted with a concurrent change and was rolled back; reload and retry", { cause: err });
    }
    if (isCheckViolation(err)) {
      throw new AppError("allocation_exceeds_remaining", "the allocation exceeds what is left of the payment or the obligation", { cause: err });
    }
    throw err;
  }
}

async function allocate(tx: Tx, input: AllocatePaymentInput): Promise<TPaymentAllocationResult> {
  const { organizationId, body } = input;
  const amount = BigInt(body.amount_minor);

  // 1. The payment row, locked until the transaction ends, with its allocations (the answer
  // and the event show the payment after this one: built from this read, not read again).
  const p = await lockPayment(tx, { organizationId, paymentId: input.paymentId });
  const paymentId = p.id;
  if (p.dismissedAt) throw invalidState("the payment is dismissed as not a receivable; restore it before allocating it");

  // 2. The obligation: version check, checks, allocation row, payment update, version bump.
  const allocationId = newId();
  const createdAt = new Date();
  let obligationReference = "";
  let obligationId = body.obligation_id;
  let paymentAfter: TPayment | undefined;
  const result = await mutateObligation(tx, {
    organizationId,
    obligationId: body.obligation_id,
    expectedVersion: body.expected_version,
    principal: input.principal,
    eventType: "payment.allocated",
    paymentId,
    apply: async (o) => {
      if (o.currency !== p.currency) {
        throw new AppError("currency_mismatch", `the payment is in ${p.currency}, the obligation in ${o.currency}`);
      }
      const wanted = p.direction === "outgoing" ? "debtor" : "creditor";
      if (o.organizationRole !== wanted) {
        throw new AppError(
          "direction_mismatch",
          `an ${p.direction} payment is allocated to obligations where the organization is the ${wanted}; this one has organization_role ${o.organizationRole}`,
        );
      }
      const unallocated = p.amountMinor - p.allocatedMinor;
      const outstanding = o.amountMinor - o.allocatedMinor;
      if (amount > unallocated) {
        throw new AppError("allocation_exceeds_remaining", `amount_minor ${amount} exceeds the payment's unallocated amount ${unallocated}`);
      }
      if (amount > outstanding) {
        throw new AppError("allocation_exceeds_remaining", `amount_minor ${amount} exceeds the obligation's outstanding amount ${outstanding}`);
      }
      obligationReference = o.reference;
      obligationId = o.id;
      // The allocation row and the payment's raise, held back and sent with the obligation's
      // update (`later`, lib/db/query.ts): the payment is locked by this transaction, so
      // nothing else moved it since step 1; a CHECK violation surfaces at that next statement
      // and is mapped by allocatePayment like any other.
      await insertAllocation.later(tx, { id: allocationId, org: organizationId, payment: paymentId, obligation: o.id, amount, at: createdAt });
      await raisePayment.later(tx, { org: organizationId, payment: paymentId, amount, at: createdAt });
      paymentAfter = toPaymentView({
        ...p,
        allocatedMinor: p.allocatedMinor + amount,
        updatedAt: createdAt,
        allocations: [
          ...p.allocations,
          {
            id: allocationId,
            organizationId,
            paymentId,
            obligationId: o.id,
            amountMinor: amount,
            createdAt,
            reversedAt: null,
            reversalReason: "",
            obligation: { reference: o.reference },
          },
        ].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      });
      const allocated = o.allocatedMinor + amount;
      return { allocatedMinor: { increment: amount }, status: allocated === o.amountMinor ? "RECONCILED" : "PARTIALLY_RECONCILED" };
    },
    // biome-ignore lint/style/noNonNullAssertion: set by apply, which runs before the event
    eventData: () => ({ payment: paymentAfter! }),
    detail: (o) => ({
      payment_id: paymentId,
      allocation_id: allocationId,
      amount_minor: amount.toString(),
      allocated_minor_before: o.allocatedMinor.toString(),
    }),
  });

  // settle_remainder (docs/obligations.md, Lifecycle): the obligation's rest credited in the same
  // transaction, against the version the allocation just wrote.
  // biome-ignore lint/style/noNonNullAssertion: mutateObligation returns the obligation it changed
  const allocated = result.obligation!;
  const rest = body.settle_remainder && allocated.status !== "RECONCILED" ? body.settle_remainder : undefined;
  const settled = rest
    ? await applyCredit(tx, {
        organizationId,
        obligationId,
        principal: input.principal,
        remainder: true,
        body: { expected_version: allocated.version, kind: rest.kind, reason: rest.reason },
      })
    : undefined;
  return {
    ...result,
    ...(settled ? { invoice: settled.result.invoice } : {}),
    // biome-ignore lint/style/noNonNullAssertion: mutateObligation returns the obligation it changed
    obligation: settled ? settled.result.obligation! : allocated,
    ...(settled ? { credit: settled.credit } : {}),
    allocation: {
      id: allocationId,
      payment_id: paymentId,
      obligation_id: obligationId,
      obligation_reference: obligationReference,
      amount_minor: amount.toString(),
      created_at: createdAt.toISOString(),
      reversed_at: null,
      reversal_reason: "",
    },
    // biome-ignore lint/style/noNonNullAssertion: set by the mutation above, which either ran or threw
    payment: paymentAfter!,
  };
}
