import type { Tx } from "@/lib/db/client";
import { lockPayment } from "@/lib/payments/lock-payment";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { allocatePayment } from "@/lib/payments/allocate-payment";
import { parseSuggestionId, shortWithinTolerance, toleranceReason } from "@/lib/reconciliation/engine";
import { loadSettingsRow, toEngineSettings } from "@/lib/reconciliation/view";
import { computeSuggestions } from "@/lib/reconciliation/list-payment-suggestions";
import { comparableName } from "@/lib/reconciliation/text";
import type { TAcceptSuggestion, TAcceptSuggestionResult, TSuggestion } from "@/lib/schemas/reconciliation";
import type { TPaymentAllocationResult, TSettleRemainder } from "@/lib/schemas/payments";
import { present } from "@/lib/present";

export type AcceptSuggestionInput = { organizationId: string; principal: Principal; paymentId: string; suggestionId: string; body?: TAcceptSuggestion };

const stale = (id: string) =>
  new AppError("suggestion_stale", `suggestion ${id} is not among the payment's current suggestions; list them again (GET /payments/{id}/suggestions)`);

// POST /payments/{id}/suggestions/{suggestion}/accept: every allocation of the suggestion
// in the caller's transaction, all or nothing.
//
// Lock order as in allocatePayment: the payment row first (FOR UPDATE, held until the end),
// then each obligation through mutateObligation's guarded version bump, in obligation-id
// order, so two acceptances touching the same obligations queue instead of deadlocking.
// The suggestions are recomputed under the payment lock: an id whose stable part is not
// among them is 409 suggestion_stale; otherwise each obligation is changed only if its
// version is still the one the suggestion was computed against (carried in the id), else
// 409 version_conflict and the whole transaction rolls back.
export async function acceptSuggestion(tx: Tx, input: AcceptSuggestionInput): Promise<TAcceptSuggestionResult> {
  const { organizationId, paymentId } = input;
  await lockPayment(tx, { organizationId, paymentId });

  const wanted = parseSuggestionId(input.suggestionId);
  if (!wanted) throw stale(input.suggestionId);
  const current = (await computeSuggestions(tx, { organizationId, paymentId })).find((s) => parseSuggestionId(s.id)?.key === wanted.key);
  if (!current) throw stale(input.suggestionId);
  const ordered = [...current.allocations].sort((a, b) => (a.obligation_id < b.obligation_id ? -1 : a.obligation_id > b.obligation_id ? 1 : 0));
  if (wanted.versions.length !== ordered.length) throw stale(input.suggestionId);

  // §12 tolerance: a single allocation short within the organization's tolerance settles the
  // obligation's rest with a credit of the tolerance's kind, unless the caller chose otherwise
  // (a kind of its own, or null: leave the rest open).
  const chosen = input.body?.settle_remainder;
  const remainder = chosen === null ? undefined : (chosen ?? (await toleranceRemainder(tx, organizationId, ordered)));

  const results = new Map<string, TPaymentAllocationResult>();
  let last: TPaymentAllocationResult | undefined;
  for (const [i, a] of ordered.entries()) {
    last = await allocatePayment(tx, {
      organizationId,
      paymentId,
      principal: input.principal,
      body: {
        obligation_id: a.obligation_id,
        amount_minor: a.amount_minor,
        expected_version: wanted.versions[i],
        ...(remainder ? { settle_remainder: remainder } : {}),
      },
    });
    results.set(a.obligation_id, last);
  }
  const inOrder = current.allocations.map((a) => present(results.get(a.obligation_id), "allocation result"));
  await remember(tx, organizationId, paymentId, wanted.key, inOrder);
  const credits = inOrder.flatMap((r) => (r.credit ? [r.credit] : []));
  return {
    payment: present(last, "allocation").payment,
    allocations: inOrder.map((r) => r.allocation),
    obligations: inOrder.map((r) => r.obligation),
    ...(remainder ? { credits } : {}),
  };
}

// What an accepted suggestion teaches: the acceptance (GET /reconciliation/stats) and the
// payer's name as an alias of each party it paid whose name it does not already match
// (payer evidence "paid by this name before" for later payments).
async function remember(tx: Tx, organizationId: string, paymentId: string, key: string, results: TPaymentAllocationResult[]): Promise<void> {
  await tx.suggestionAcceptance.createMany({ data: [{ organizationId, paymentId, suggestionKey: key }], skipDuplicates: true });
  const payment = results[0]?.payment;
  if (!payment?.payer_name) return;
  const aliasKey = comparableName(payment.payer_name);
  const rows = results
    .map((r) => {
      const party = payment.direction === "outgoing" ? r.obligation.creditor.name : r.obligation.debtor.name;
      return {
        organizationId,
        aliasKey,
        partyKey: comparableName(party),
        direction: payment.direction,
        aliasName: payment.payer_name.slice(0, 500),
        partyName: party,
      };
    })
    .filter((r) => r.aliasKey !== "" && r.partyKey !== "" && r.partyKey !== r.aliasKey);
  if (rows.length) await tx.counterpartyAlias.createMany({ data: rows, skipDuplicates: true });
}

async function toleranceRemainder(tx: Tx, organizationId: string, allocations: TSuggestion["allocations"]): Promise<TSettleRemainder | undefined> {
  if (allocations.length !== 1) return undefined;
  const { tolerance } = toEngineSettings(await loadSettingsRow(tx, { organizationId }));
  const short = shortWithinTolerance(BigInt(allocations[0].amount_minor), BigInt(allocations[0].outstanding_minor), tolerance);
  return short ? { kind: short.kind, reason: toleranceReason(short.kind) } : undefined;
}
