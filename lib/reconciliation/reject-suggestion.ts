import type { Tx } from "@/lib/db/client";
import { lockPayment } from "@/lib/payments/lock-payment";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { recordEvent } from "@/lib/events/record-event";
import { parseSuggestionId, type Suggestion } from "@/lib/reconciliation/engine";
import { computeSuggestions } from "@/lib/reconciliation/list-payment-suggestions";

export type RejectSuggestionInput = { organizationId: string; principal: Principal; paymentId: string; suggestionId: string };

// POST /payments/{id}/suggestions/{suggestion}/reject: that allocation set is not suggested
// for this payment again (whatever the versions); answers the suggestions left. A suggestion
// that is not among the current ones is 409 suggestion_stale. Event
// `payment.suggestion_rejected` (data.payment_id, data.suggestion).
export async function rejectSuggestion(tx: Tx, input: RejectSuggestionInput): Promise<{ items: Suggestion[] }> {
  const { organizationId, paymentId } = input;
  await lockPayment(tx, { organizationId, paymentId });
  const wanted = parseSuggestionId(input.suggestionId);
  const current = wanted ? (await computeSuggestions(tx, { organizationId, paymentId })).find((s) => parseSuggestionId(s.id)?.key === wanted.key) : undefined;
  if (!wanted || !current)
    throw new AppError(
      "suggestion_stale",
      `suggestion ${input.suggestionId} is not among the payment's current suggestions; list them again (GET /payments/{id}/suggestions)`,
    );
  await tx.suggestionRejection.create({ data: { organizationId, paymentId, suggestionKey: wanted.key } });
  await recordEvent(tx, {
    organizationId,
    type: "payment.suggestion_rejected",
    principal: input.principal,
    paymentId,
    data: { payment_id: paymentId, suggestion: current },
  });
  return { items: await computeSuggestions(tx, { organizationId, paymentId }) };
}
