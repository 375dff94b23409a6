import { camelColumns } from "@/lib/db/camel";
import type { Tx } from "@/lib/db/client";
import { statement } from "@/lib/db/query";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { isCheckViolation, isUniqueViolationOf, isWriteConflict } from "@/lib/db/errors";
import type { TCredit, TCreditResult } from "@/lib/schemas/obligations";
import type { TReverseEntry } from "@/lib/schemas/payments";
import { invalidState, mutateObligation } from "@/lib/obligations/mutate-obligation";
import { settledStatus } from "@/lib/obligations/settled-status";
import { CREDIT_COLUMNS, toCredit } from "@/lib/obligations/view";
import { findReferenceHolder, LIVE_REFERENCE_INDEX } from "@/lib/obligations/find-reference-holder";
import type { LoadedObligation } from "@/lib/obligations/load";

export type ReverseCreditInput = { organizationId: string; obligationId: string; creditId: string; principal: Principal; body: TReverseEntry };

const CREDIT_SELECT = statement((q, p: { id: string; org: string; obligation: string }) =>
  q
    .selectFrom("obligation_credits as c")
    .select(camelColumns("c", CREDIT_COLUMNS))
    .where("c.id", "=", p.id)
    .where("c.organization_id", "=", p.org)
    .where("c.obligation_id", "=", p.obligation),
);

const REVERSE = statement((q, p: { id: string; org: string; at: string; reason: string }) =>
  q
    .updateTable("obligation_credits")
    .set({ reversed_at: p.at, reversal_reason: p.reason })
    .where("id", "=", p.id)
    .where("organization_id", "=", p.org)
    .where("reversed_at", "is", null),
);

// POST /obligations/{id}/credits/{credit}/reverse: the credit stays in the history with
// reversed_at and the reason; allocated_minor and credited_minor drop by its amount and the
// status is the one the obligation has without it (lib/obligations/settled-status.ts; the
// one way back from RECONCILED). Under the obligation's lock (mutateObligation), so a
// credit is reversed once; event `obligation.credit_reversed`.
export async function reverseCredit(tx: Tx, input: ReverseCreditInput): Promise<TCreditResult> {
  try {
    return await reverse(tx, input);
  } catch (err) {
    if (isWriteConflict(err))
      throw new AppError("version_conflict", "the reversal conflicted with a concurrent change and was rolled back; reload and retry", { cause: err });
    if (isCheckViolation(err)) throw new AppError("invalid_state", "the reversal would leave the obligation's settled amounts inconsistent", { cause: err });
    // A registration of the same external reference committed between the look-up and the update.
    if (isUniqueViolationOf(err, LIVE_REFERENCE_INDEX)) throw takenReference(input.obligationId, null, err);
    throw err;
  }
}

async function reverse(tx: Tx, input: ReverseCreditInput): Promise<TCreditResult> {
  const { organizationId, body } = input;
  const reversedAt = new Date();
  let credit: TCredit | undefined;
  const result = await mutateObligation(tx, {
    organizationId,
    obligationId: input.obligationId,
    expectedVersion: body.expected_version,
    principal: input.principal,
    eventType: "obligation.credit_reversed",
    apply: async (o) => {
      const rows = await CREDIT_SELECT.rows(tx, { id: input.creditId, org: organizationId, obligation: o.id });
      if (rows.length !== 1) throw new AppError("not_found", "credit not found");
      const c = rows[0];
      if (c.reversedAt) throw invalidState(`the credit was already reversed on ${c.reversedAt.toISOString()}`);
      await REVERSE.later(tx, { id: c.id, org: organizationId, at: reversedAt.toISOString(), reason: body.reason });
      credit = toCredit({ ...c, reversedAt, reversalReason: body.reason });
      if (c.kind === "cancellation") await refuseTakenReference(tx, o);
      const allocated = o.allocatedMinor - c.amountMinor;
      return {
        allocatedMinor: { increment: -c.amountMinor },
        creditedMinor: { increment: -c.amountMinor },
        status: await settledStatus(tx, { obligation: o, allocated }),
        // Only one cancellation can be live at a time (it takes the whole outstanding amount);
        // un-cancelled, the obligation holds its external reference again (a twin older than
        // migration 0030 too: the look-up above found no other holder).
        ...(c.kind === "cancellation" ? { cancelledAt: null, duplicateOf: null } : {}),
      };
    },
    // biome-ignore lint/style/noNonNullAssertion: set by apply, which runs before the event
    eventData: () => ({ credit: credit! }),
    detail: (o) => ({
      credit_id: input.creditId,
      kind: credit?.kind ?? "",
      amount_minor: credit?.amount_minor ?? "",
      reason: body.reason,
      allocated_minor_before: o.allocatedMinor.toString(),
    }),
  });
  // biome-ignore lint/style/noNonNullAssertion: set by the mutation above, which either ran or threw
  return { credit: credit!, obligation: result.obligation! };
}

// Un-cancelling an obligation whose external reference was registered again since: 409
// duplicate naming the live obligation (cancel that one first), so a reference never names
// two live obligations (migration 0030's unique index). An invoice's default reference
// { invoice, invoice_number } is not unique.
async function refuseTakenReference(tx: Tx, o: LoadedObligation): Promise<void> {
  if (o.obligationType === "invoice" && o.externalNamespace === "invoice" && o.externalId === o.invoiceNumber) return;
  const holder = await findReferenceHolder(tx, { organizationId: o.organizationId, namespace: o.externalNamespace, id: o.externalId, except: o.id });
  if (holder) throw takenReference(o.id, holder);
}

const takenReference = (id: string, holder: string | null, cause?: unknown) =>
  new AppError(
    "duplicate",
    `the cancellation cannot be reversed: the external_reference of obligation ${id} now names ${holder ? `obligation ${holder}` : "another obligation"}, which is not cancelled; cancel that one first`,
    { cause },
  );
