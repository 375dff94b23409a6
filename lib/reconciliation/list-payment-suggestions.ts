import type { Tx } from "@/lib/db/client";
import { loadPayment } from "@/lib/payments/view";
import { attachMemory, findCandidates } from "@/lib/reconciliation/candidates";
import { suggest, type Suggestion } from "@/lib/reconciliation/engine";
import { statementRemittance, toFacts } from "@/lib/reconciliation/payment-facts";
import { loadSettingsRow, toEngineSettings } from "@/lib/reconciliation/view";

export type ListPaymentSuggestionsInput = { organizationId: string; paymentId: string };

// GET /payments/{id}/suggestions: at most five suggestions computed against the current
// state (404 for an unknown payment or one of another organization), without the ones
// rejected for this payment, with the organization's tolerance.
export async function listPaymentSuggestions(tx: Tx, input: ListPaymentSuggestionsInput): Promise<{ items: Suggestion[] }> {
  return { items: await computeSuggestions(tx, input) };
}

export async function computeSuggestions(tx: Tx, input: ListPaymentSuggestionsInput): Promise<Suggestion[]> {
  const { organizationId } = input;
  const payment = await loadPayment(tx, { organizationId, paymentId: input.paymentId });
  // Nothing to allocate, or set aside as not a receivable (POST /payments/{id}/dismiss).
  if (payment.amountMinor - payment.allocatedMinor <= 0n || payment.dismissedAt) return [];
  const facts = toFacts(payment, await statementRemittance(tx, { organizationId, paymentId: payment.id }));
  const settings = toEngineSettings(await loadSettingsRow(tx, { organizationId }));
  await attachMemory(tx, { organizationId, payments: [facts], withRejections: true });
  const candidates = await findCandidates(tx, { organizationId, payments: [facts] });
  return suggest(facts, candidates.get(facts.id) ?? [], settings);
}
