import { randomBytes } from "node:crypto";
import type { Tx } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { eventWrite } from "@/lib/events/record-event";
import { toDate } from "@/lib/schemas/common";
import type { TMutationResult, TRegisterObligation } from "@/lib/schemas/obligations";
import { TermsError, termAmounts, validateTerms, type TermSpec } from "@/lib/obligations/terms";
import {
  mutationResult,
  NO_DISPUTE_OR_PROMISE,
  type NoDisputeOrPromiseField,
  organizationNameFor,
  toObligationProjection,
  type LoadedObligation,
} from "@/lib/obligations/view";
import { newPaymentRequestRow } from "@/lib/payment-requests/new-payment-request";
import { insertRows } from "@/lib/db/insert-rows";
import { storedProjectionRow } from "@/lib/obligations/stored-projection";
import type { Obligation } from "@/lib/generated/prisma/client";
import { paymentReferenceFor } from "@/lib/payment-references/rf";
import { present } from "@/lib/present";

// POST /obligations: in the caller's transaction, creates the obligation, its conditions,
// payment terms and context links, its hosted payment request and the
// `obligation.registered` event; returns the mutation result (with payment_request).
export type RegisterObligationInput = { organizationId: string; principal: Principal; body: TRegisterObligation; now?: Date };

export async function registerObligation(tx: Tx, input: RegisterObligationInput): Promise<TMutationResult> {
  const { organizationId, body } = input;
  const now = input.now ?? new Date();
  const today = now.toISOString().slice(0, 10);
  const org = { name: await organizationNameFor(tx, { principal: input.principal, organizationId }) };

  const role = body.organization_role ?? "creditor";
  const creditor = body.creditor ?? (role === "creditor" ? { name: org.name } : undefined);
  const debtor = body.debtor ?? (role === "debtor" ? { name: org.name } : undefined);

  // Conditions: fresh ids; keys unique within the obligation.
  const conditions = (body.conditions ?? []).map((c, i) => {
    const status = c.status ?? "waiting";
    return {
      id: newId(),
      clientId: c.id,
      position: i + 1,
      key: c.key,
      label: c.label,
      externalNamespace: c.external_reference?.namespace ?? null,
      externalId: c.external_reference?.id ?? null,
      status,
      satisfiedOn: status === "waiting" ? null : (c.satisfied_on ?? today),
      source: c.source ?? "",
      evidenceReference: c.evidence_reference ?? "",
    };
  });
  const issues: string[] = [];
  const byKey = new Map<string, string>();
  const byClientId = new Map<string, string>();
  conditions.forEach((c, i) => {
    if (byKey.has(c.key)) issues.push(`body.conditions.${i}.key: duplicate condition key "${c.key}"`);
    byKey.set(c.key, c.id);
    if (c.clientId) byClientId.set(c.clientId, c.id);
  });
  if (issues.length) throw new AppError("validation_failed", issues.join("; "));

  // Payment terms: resolve condition references, then let the engine validate them.
  const terms = (body.payment_terms ?? []).map((t, i) => {
    let conditionId: string | null = null;
    if (t.condition_key !== undefined || t.condition_id !== undefined) {
      if (t.trigger_type !== "condition_satisfied") {
        throw new AppError("validation_failed", `body.payment_terms.${i}.condition_key: only for trigger_type condition_satisfied`);
      }
      const fromKey = t.condition_key !== undefined ? byKey.get(t.condition_key) : undefined;
      const fromId = t.condition_id !== undefined ? byClientId.get(t.condition_id) : undefined;
      if ((t.condition_key !== undefined && !fromKey) || (t.condition_id !== undefined && !fromId) || (fromKey && fromId && fromKey !== fromId)) {
        throw new AppError("payment_terms_mismatch", `body.payment_terms.${i}: references an unknown condition`);
      }
      conditionId = present(fromKey ?? fromId, "condition");
    }
    const spec: TermSpec = {
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
    };
    return { spec, label: t.label ?? "", declaredAmount: t.amount_minor };
  });
  const amount = BigInt(body.amount_minor);
  try {
    validateTerms(
      amount,
      terms.map((t) => t.spec),
      new Set(conditions.map((c) => c.id)),
    );
  } catch (e) {
    if (!(e instanceof TermsError)) throw e;
    const where = e.index === undefined ? "body.payment_terms" : `body.payment_terms.${e.index}${e.field ? `.${e.field}` : ""}`;
    throw new AppError(e.kind === "mismatch" ? "payment_terms_mismatch" : "validation_failed", `${where}: ${e.message}`);
  }
  if (terms.length) {
    const amounts = termAmounts(
      amount,
      terms.map((t) => t.spec),
    );
    terms.forEach((t, i) => {
      if (t.declaredAmount !== undefined && BigInt(t.declaredAmount) !== amounts[i]) {
        throw new AppError("payment_terms_mismatch", `body.payment_terms.${i}.amount_minor: the term comes to ${amounts[i]}, not ${t.declaredAmount}`);
      }
    });
  }

  // Business contexts: each must exist in this organization.
  const contextIds = [...new Set(body.context_ids ?? [])];
  const contexts = contextIds.length ? await tx.businessContext.findMany({ where: { organizationId, id: { in: contextIds } } }) : [];
  if (contextIds.length) {
    const found = new Set(contexts.map((c) => c.id));
    const missing = (body.context_ids ?? []).flatMap((id, i) => (found.has(id) ? [] : [`body.context_ids.${i}: no business context with this id`]));
    if (missing.length) throw new AppError("validation_failed", missing.join("; "));
  }

  const obligationId = newId();
  const legacy = body.condition;
  // 50 random bits per reference: no look-up first; the unique index (organization_id,
  // reference) is the guard (a collision, about 1 in 10^9 at a million obligations, is a
  // 409 that the client's retry with the same Idempotency-Key resolves).
  const reference = randomReference();
  // The dispute and promise columns stay out of the insert (NULL: none yet).
  const created: Omit<Obligation, NoDisputeOrPromiseField> = {
    id: obligationId,
    organizationId,
    reference,
    paymentReference: paymentReferenceFor(reference),
    obligationType: body.obligation_type,
    organizationRole: role,
    externalNamespace: body.external_reference.namespace,
    externalId: body.external_reference.id,
    creditorName: creditor?.name ?? "",
    creditorEmail: creditor?.email ?? "",
    debtorName: debtor?.name ?? "",
    debtorEmail: debtor?.email ?? "",
    amountMinor: amount,
    allocatedMinor: 0n,
    currency: body.currency,
    deadline: toDate(body.deadline),
    invoiceNumber: body.business_context.invoice_number,
    description: body.business_context.description ?? "",
    label: body.label ?? "",
    conditionSummary: legacy?.summary ?? "",
    conditionStatus: legacy ? (legacy.status ?? "pending") : "",
    conditionSatisfiedOn: legacy?.satisfied_on ? toDate(legacy.satisfied_on) : null,
    status: "OBLIGATION_CAPTURED",
    version: 1,
    acknowledged: false,
    expectedPaymentDate: null,
    reportedPaymentDate: null,
    reportedAmountMinor: null,
    reportedReference: "",
    createdAt: now,
    updatedAt: now,
    nextScheduledOn: toDate(today),
    projectionRev: 0,
    creditedMinor: 0n,
    cancelledAt: null,
  };
  const conditionRows = conditions.map(({ clientId: _c, satisfiedOn, ...c }) => ({
    ...c,
    organizationId,
    obligationId,
    satisfiedOn: satisfiedOn ? toDate(satisfiedOn) : null,
  }));
  const termRows = terms.map(({ spec, label }) => ({
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
  const linkRows = contextIds.map((contextId, i) => ({
    id: newId(),
    organizationId,
    obligationId,
    contextId,
    relationshipType: "related",
    attributedMinor: null,
    createdAt: new Date(now.getTime() + i), // keeps the request's order stable
  }));
  const paymentRequest = newPaymentRequestRow({ organizationId, obligationId, now });
  // Everything the result needs is at hand: no re-read of what was just written.
  const byId = new Map(contexts.map((c) => [c.id, c]));
  const loaded: LoadedObligation = {
    ...created,
    ...NO_DISPUTE_OR_PROMISE,
    conditions: conditionRows,
    paymentTerms: [...termRows].sort((a, b) => a.sequence - b.sequence),
    contextLinks: linkRows.map((l) => ({ ...l, context: present(byId.get(l.contextId), "linked context") })),
    paymentRequests: [paymentRequest],
    paymentRequest,
    organizationName: org.name,
  };
  const event = eventWrite({
    organizationId,
    type: "obligation.registered",
    principal: input.principal,
    obligationId,
    data: { obligation: toObligationProjection(loaded) },
    detail: { reference: loaded.reference },
  });
  // One statement for the obligation, all its parts and its event with the webhook outbox
  // (lib/db/insert-rows.ts, lib/events/record-event.ts), sent with the transaction's next
  // statement or its COMMIT: its failure (a unique violation) is the transaction's.
  await insertRows(
    tx,
    [
      { table: "obligations", rows: [created] },
      { table: "obligation_conditions", rows: conditionRows },
      { table: "payment_terms", rows: termRows },
      { table: "obligation_context_links", rows: linkRows },
      { table: "payment_requests", rows: [paymentRequest] },
      // The list projection, stored with the row: the first list read computes nothing
      // (lib/obligations/stored-projection.ts).
      { table: "obligation_projections", rows: [storedProjectionRow(loaded, today)] },
    ],
    event.statement,
    { later: true },
  );
  return mutationResult(tx, {
    organizationId,
    obligationId,
    eventId: event.id,
    eventType: "obligation.registered",
    paymentRequest: true,
    loaded,
  });
}

// OBL- + 10 Crockford base32 characters (50 random bits), unique per organization.
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function randomReference(): string {
  const bytes = randomBytes(10);
  let s = "OBL-";
  for (const b of bytes) s += CROCKFORD[b & 31];
  return s;
}
