import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { toDate } from "@/lib/schemas/common";
import type { TPaymentTermInput } from "@/lib/schemas/obligations";
import { TermsError, termAmounts, validateTerms, type TermSpec } from "@/lib/obligations/terms";

// Payment terms as a request gives them (registration and `amend`): resolved against the
// obligation's conditions, validated by the terms engine, and as the payment_terms rows.

export type TermInput = { spec: TermSpec; label: string; declared?: string };

// The terms as the engine reads them. A condition is named by its key or its id
// (`condition`: the id of the obligation's condition with that key / id, if any); one that is
// not the obligation's is 422 payment_terms_mismatch (`unknown`: the message's words).
export function resolveTerms(
  input: readonly TPaymentTermInput[],
  condition: { byKey(key: string): string | undefined; byId(id: string): string | undefined; unknown: string },
): TermInput[] {
  return input.map((t, i) => {
    let conditionId: string | null = null;
    if (t.condition_key !== undefined || t.condition_id !== undefined) {
      if (t.trigger_type !== "condition_satisfied") {
        throw new AppError("validation_failed", `body.payment_terms.${i}.condition_key: only for trigger_type condition_satisfied`);
      }
      const fromKey = t.condition_key !== undefined ? condition.byKey(t.condition_key) : undefined;
      const fromId = t.condition_id !== undefined ? condition.byId(t.condition_id) : undefined;
      const id = fromKey ?? fromId;
      if ((t.condition_key !== undefined && !fromKey) || (t.condition_id !== undefined && !fromId) || (fromKey && fromId && fromKey !== fromId) || !id) {
        throw new AppError("payment_terms_mismatch", `body.payment_terms.${i}: ${condition.unknown}`);
      }
      conditionId = id;
    }
    return {
      spec: {
        sequence: t.sequence,
        amountType: t.amount_type,
        fixedAmountMinor: t.fixed_amount_minor !== undefined ? BigInt(t.fixed_amount_minor) : null,
        percentageBasisPoints: t.percentage_basis_points ?? null,
        triggerType: t.trigger_type,
        triggerDate: t.trigger_date ?? null,
        conditionId,
        dueRule: t.due_rule,
        dueDate: t.due_date ?? null,
        dueDays: t.due_days ?? null,
      },
      label: t.label ?? "",
      declared: t.amount_minor,
    };
  });
}

// The engine's checks, and each declared amount_minor against what the term comes to.
// `given`: whether the request named the terms (false: an `amend` of the amount alone, whose
// existing terms must still add up: 422 payment_terms_mismatch).
export function checkTerms(amount: bigint, terms: readonly TermInput[], conditionIds: Set<string>, given: boolean): void {
  const specs = terms.map((t) => t.spec);
  try {
    validateTerms(amount, specs, conditionIds);
  } catch (e) {
    if (!(e instanceof TermsError)) throw e;
    const where = !given
      ? "body.amount_minor: the obligation's payment terms"
      : e.index === undefined
        ? "body.payment_terms"
        : `body.payment_terms.${e.index}${e.field ? `.${e.field}` : ""}`;
    throw new AppError(e.kind === "mismatch" || !given ? "payment_terms_mismatch" : "validation_failed", `${where}: ${e.message}`);
  }
  if (!specs.length) return;
  const amounts = termAmounts(amount, specs);
  terms.forEach((t, i) => {
    if (t.declared !== undefined && BigInt(t.declared) !== amounts[i]) {
      throw new AppError("payment_terms_mismatch", `body.payment_terms.${i}.amount_minor: the term comes to ${amounts[i]}, not ${t.declared}`);
    }
  });
}

// The payment_terms rows of an obligation's terms (model field names).
export function termRows(organizationId: string, obligationId: string, terms: readonly Omit<TermInput, "declared">[]) {
  return terms.map(({ spec, label }) => ({
    id: newId(),
    organizationId,
    obligationId,
    sequence: spec.sequence,
    label,
    amountType: spec.amountType,
    fixedAmountMinor: spec.fixedAmountMinor ?? null,
    percentageBasisPoints: spec.percentageBasisPoints ?? null,
    triggerType: spec.triggerType,
    triggerDate: spec.triggerDate ? toDate(spec.triggerDate) : null,
    conditionId: spec.conditionId ?? null,
    dueRule: spec.dueRule,
    dueDate: spec.dueDate ? toDate(spec.dueDate) : null,
    dueDays: spec.dueDays ?? null,
  }));
}
