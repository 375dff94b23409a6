import type { Tx } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { applyCredit } from "@/lib/obligations/apply-credit";
import { allocatePayment } from "@/lib/payments/allocate-payment";
import { toleranceReason, type Shortfall } from "@/lib/reconciliation/engine";
import { minorToDecimal } from "@/lib/money/format";

// An automatic allocation of an import whose payment is short within the organization's
// tolerance (docs/reconciliation.md): the payment allocated, the shortfall credited (§9).
export type ShortPaid = { paymentId: string; obligationId: string; amountMinor: bigint; shortfall: Shortfall };

export type AllocateShortPaidInput = { organizationId: string; principal: Principal; items: ShortPaid[] };

// One allocation and one credit per item, through the same functions a person's allocation and
// credit use (events, versions, locks). An obligation changed meanwhile (by an earlier line of
// the same import) so that allocation and credit no longer fit is left to a person.
// Returns the payment ids that were allocated.
export async function allocateShortPaid(tx: Tx, input: AllocateShortPaidInput): Promise<Set<string>> {
  const { organizationId, principal } = input;
  const done = new Set<string>();
  for (const item of input.items) {
    const o = await tx.obligation.findFirst({
      where: { id: item.obligationId, organizationId },
      select: { version: true, amountMinor: true, allocatedMinor: true, status: true, currency: true },
    });
    if (!o || o.status === "RECONCILED" || o.amountMinor - o.allocatedMinor < item.amountMinor + item.shortfall.shortMinor) continue;
    const allocated = await allocatePayment(tx, {
      organizationId,
      paymentId: item.paymentId,
      principal,
      body: { obligation_id: item.obligationId, amount_minor: item.amountMinor.toString(), expected_version: o.version },
    });
    await applyCredit(tx, {
      organizationId,
      obligationId: item.obligationId,
      principal,
      body: {
        expected_version: allocated.obligation.version,
        kind: item.shortfall.kind,
        amount_minor: item.shortfall.shortMinor.toString(),
        reason: `${toleranceReason(item.shortfall.kind)} (${minorToDecimal(item.shortfall.shortMinor, o.currency)} ${o.currency})`,
      },
    });
    done.add(item.paymentId);
  }
  return done;
}
