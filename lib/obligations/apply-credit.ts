import type { Insertable } from "kysely";
import type { Tx } from "@/lib/db/client";
import { statement } from "@/lib/db/query";
import type { ObligationCredit } from "@/lib/generated/kysely/database";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { isCheckViolation, isWriteConflict } from "@/lib/db/errors";
import type { TCreateCredit, TCredit, TMutationResult } from "@/lib/schemas/obligations";
import { invalidState, mutateObligation } from "@/lib/obligations/mutate-obligation";
import { toCredit } from "@/lib/obligations/view";

export type ApplyCreditInput = {
  organizationId: string;
  obligationId: string;
  principal: Principal;
  body: TCreateCredit;
  // settle_remainder: credit whatever is outstanding (the caller knows something is)
  remainder?: boolean;
};

const INSERT_CREDIT = statement((q, p: Omit<Insertable<ObligationCredit>, "reversed_at" | "reversal_reason">) =>
  q.insertInto("obligation_credits").values({
    id: p.id,
    organization_id: p.organization_id,
    obligation_id: p.obligation_id,
    kind: p.kind,
    amount_minor: p.amount_minor,
    reason: p.reason,
    reference: p.reference,
    document_id: p.document_id,
    created_at: p.created_at,
  }),
);

// A credit settles part of an obligation without money (docs/obligations.md, Lifecycle): it counts in
// allocated_minor (and credited_minor) and moves the status as an allocation does, through
// mutateObligation (version check, row lock, one UPDATE, event `obligation.credited`).
// Never more than outstanding (422 allocation_exceeds_remaining; the CHECK constraints of
// the obligations row are the last line).
export async function applyCredit(tx: Tx, input: ApplyCreditInput): Promise<{ credit: TCredit; result: TMutationResult }> {
  try {
    return await apply(tx, input);
  } catch (err) {
    if (isWriteConflict(err))
      throw new AppError("version_conflict", "the credit conflicted with a concurrent change and was rolled back; reload and retry", { cause: err });
    if (isCheckViolation(err)) throw new AppError("allocation_exceeds_remaining", "the credit exceeds what is outstanding", { cause: err });
    throw err;
  }
}

async function apply(tx: Tx, input: ApplyCreditInput): Promise<{ credit: TCredit; result: TMutationResult }> {
  const { organizationId, body } = input;
  const id = newId();
  const createdAt = new Date();
  let credit: TCredit | undefined;
  const result = await mutateObligation(tx, {
    organizationId,
    obligationId: input.obligationId,
    expectedVersion: body.expected_version,
    principal: input.principal,
    eventType: "obligation.credited",
    apply: async (o) => {
      const outstanding = o.amountMinor - o.allocatedMinor;
      let amount: bigint;
      if (input.remainder) {
        amount = outstanding;
      } else if (body.kind === "cancellation") {
        if (outstanding === 0n) throw invalidState("nothing is outstanding, so there is nothing to cancel");
        amount = body.amount_minor === undefined ? outstanding : BigInt(body.amount_minor);
        if (amount < outstanding) {
          throw new AppError(
            "validation_failed",
            `body.amount_minor: a cancellation credits the whole outstanding amount ${outstanding}; use another kind for part of it`,
          );
        }
      } else {
        if (body.amount_minor === undefined) throw new AppError("validation_failed", `body.amount_minor: required for a ${body.kind} credit`);
        amount = BigInt(body.amount_minor);
      }
      if (amount > outstanding) {
        throw new AppError("allocation_exceeds_remaining", `amount_minor ${amount} exceeds the obligation's outstanding amount ${outstanding}`);
      }
      if (amount === 0n) throw invalidState("nothing is outstanding");
      if (body.document_id !== undefined) {
        const doc = await tx.document.findFirst({ where: { id: body.document_id, organizationId, obligationId: o.id }, select: { id: true } });
        if (!doc) throw new AppError("validation_failed", "body.document_id: no document of this obligation has this id");
      }
      const row = {
        id,
        obligationId: o.id,
        kind: body.kind,
        amountMinor: amount,
        reason: body.reason,
        reference: body.reference ?? "",
        documentId: body.document_id ?? null,
        createdAt,
        reversedAt: null,
        reversalReason: "",
      };
      await INSERT_CREDIT.later(tx, {
        id,
        organization_id: organizationId,
        obligation_id: o.id,
        kind: row.kind,
        amount_minor: amount,
        reason: row.reason,
        reference: row.reference,
        document_id: row.documentId,
        created_at: createdAt.toISOString(),
      });
      credit = toCredit(row);
      const allocated = o.allocatedMinor + amount;
      return {
        allocatedMinor: { increment: amount },
        creditedMinor: { increment: amount },
        status: allocated === o.amountMinor ? "RECONCILED" : "PARTIALLY_RECONCILED",
        ...(body.kind === "cancellation" ? { cancelledAt: createdAt } : {}),
      };
    },
    // biome-ignore lint/style/noNonNullAssertion: set by apply, which runs before the event
    eventData: () => ({ credit: credit! }),
    detail: (o) => ({
      credit_id: id,
      kind: body.kind,
      amount_minor: credit?.amount_minor ?? "",
      reason: body.reason,
      allocated_minor_before: o.allocatedMinor.toString(),
    }),
  });
  // biome-ignore lint/style/noNonNullAssertion: set by the mutation above, which either ran or threw
  return { credit: credit!, result };
}
