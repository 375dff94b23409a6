import type { CamelCase, CamelRow } from "@/lib/db/camel";
import type { Tx } from "@/lib/db/client";
import type { ObligationCredit } from "@/lib/generated/kysely/database";
import { fromDate, todayUtc } from "@/lib/schemas/common";
import type { TCredit, TDisputeView, TInvoiceRecord, TMutationResult, TObligationProjection, TPromiseView } from "@/lib/schemas/obligations";
import { compute } from "@/lib/obligations/evaluate";
import { loadObligation, type LoadedObligation } from "@/lib/obligations/load";
import { paymentRequestResult, type PaymentRequestRow } from "@/lib/payment-requests/view";
import { present } from "@/lib/present";

// The wire objects of obligations (lib/schemas/obligations.ts: ZInvoiceRecord,
// ZObligationProjection, ZMutationResult, ZCredit) from a loaded obligation
// (lib/obligations/load.ts) and its evaluation (lib/obligations/evaluate.ts).

const party = (name: string, email: string) => (email ? { name, email } : { name });

export function toInvoiceRecord(o: LoadedObligation, orgName: string, today = todayUtc()): TInvoiceRecord {
  const c = compute(o, today);
  const orgIsCreditor = o.organizationRole === "creditor";
  return {
    id: o.id,
    organization_id: o.organizationId,
    issuer_name: orgName,
    reference: o.reference,
    obligation_type: o.obligationType as TInvoiceRecord["obligation_type"],
    organization_role: o.organizationRole as TInvoiceRecord["organization_role"],
    obligation_label: o.label,
    creditor_name: o.creditorName,
    creditor_email: o.creditorEmail,
    debtor_name: o.debtorName,
    debtor_email: o.debtorEmail,
    recipient_name: orgIsCreditor ? o.debtorName : o.creditorName,
    recipient_email: orgIsCreditor ? o.debtorEmail : o.creditorEmail,
    external_namespace: o.externalNamespace,
    external_id: o.externalId,
    invoice_number: o.invoiceNumber,
    description: o.description,
    condition_summary: c.condition.summary,
    condition_status: c.condition.status,
    condition_satisfied_on: c.condition.satisfied_on,
    conditions: c.conditions,
    payment_terms: c.paymentTerms,
    contexts: c.contexts,
    amount_minor: o.amountMinor.toString(),
    allocated_minor: o.allocatedMinor.toString(),
    payable_minor: c.payableMinor.toString(),
    due_minor: c.dueMinor.toString(),
    currency: o.currency as TInvoiceRecord["currency"],
    due_date: fromDate(o.deadline),
    expected_payment_date: fromDate(o.expectedPaymentDate),
    reported_payment_date: fromDate(o.reportedPaymentDate),
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
    link_expires_at: o.paymentRequest ? o.paymentRequest.expiresAt.toISOString() : "",
    status: o.status as TInvoiceRecord["status"],
    version: o.version,
    acknowledged: o.acknowledged,
    link_revoked: o.paymentRequest ? o.paymentRequest.revokedAt !== null : true,
  };
}

// An obligation that was never disputed nor promised (a new registration's).
export const NO_DISPUTE_OR_PROMISE = {
  disputeStatus: null,
  disputeReason: null,
  disputeMessage: null,
  disputeAmountMinor: null,
  disputeOpenedAt: null,
  disputeResolvedAt: null,
  disputeResolutionMessage: null,
  promiseStatus: null,
  promiseDate: null,
  promiseAmountMinor: null,
  promiseBaselineMinor: null,
  promiseMadeAt: null,
  promiseDecidedAt: null,
} satisfies Partial<LoadedObligation>;
export type NoDisputeOrPromiseField = keyof typeof NO_DISPUTE_OR_PROMISE;

// The current dispute and promise of the detail views (null: there never was one).
type DisputeFields = Pick<LoadedObligation, Exclude<NoDisputeOrPromiseField, `promise${string}`>>;
type PromiseFields = Pick<LoadedObligation, Extract<NoDisputeOrPromiseField, `promise${string}`>>;

export function toDisputeView(o: DisputeFields): TDisputeView | null {
  if (o.disputeStatus === null) return null;
  return {
    status: o.disputeStatus as TDisputeView["status"],
    reason: (o.disputeReason ?? "other") as TDisputeView["reason"],
    message: o.disputeMessage ?? "",
    amount_minor: o.disputeAmountMinor === null ? null : o.disputeAmountMinor.toString(),
    opened_at: present(o.disputeOpenedAt, "dispute opened_at").toISOString(),
    resolved_at: o.disputeResolvedAt ? o.disputeResolvedAt.toISOString() : null,
    resolution_message: o.disputeResolutionMessage,
  };
}

export function toPromiseView(o: PromiseFields): TPromiseView | null {
  if (o.promiseStatus === null) return null;
  return {
    date: fromDate(o.promiseDate),
    amount_minor: (o.promiseAmountMinor ?? 0n).toString(),
    status: o.promiseStatus as TPromiseView["status"],
    made_at: present(o.promiseMadeAt, "promise made_at").toISOString(),
    decided_at: o.promiseDecidedAt ? o.promiseDecidedAt.toISOString() : null,
  };
}

export function toObligationProjection(o: LoadedObligation, today = todayUtc()): TObligationProjection {
  const c = compute(o, today);
  return {
    id: o.id,
    organization_id: o.organizationId,
    reference: o.reference,
    amount_minor: o.amountMinor.toString(),
    allocated_minor: o.allocatedMinor.toString(),
    payable_minor: c.payableMinor.toString(),
    due_minor: c.dueMinor.toString(),
    currency: o.currency as TObligationProjection["currency"],
    expected_payment_date: fromDate(o.expectedPaymentDate),
    reported_payment_date: fromDate(o.reportedPaymentDate),
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
    status: o.status as TObligationProjection["status"],
    version: o.version,
    acknowledged: o.acknowledged,
    obligation_type: o.obligationType as TObligationProjection["obligation_type"],
    organization_role: o.organizationRole as TObligationProjection["organization_role"],
    external_reference: { namespace: o.externalNamespace, id: o.externalId },
    debtor: party(o.debtorName, o.debtorEmail),
    deadline: fromDate(o.deadline),
    business_context: { invoice_number: o.invoiceNumber, description: o.description },
    creditor: party(o.creditorName, o.creditorEmail),
    label: o.label,
    condition: c.condition,
    conditions: c.conditions,
    payment_terms: c.paymentTerms,
    contexts: c.contexts,
  };
}

// The response of every mutating call on an obligation. `loaded` may be passed
// when the caller already has them (saves a reload); `paymentRequest: true` includes the
// obligation's current payment request.
export async function mutationResult(
  tx: Tx,
  input: {
    organizationId: string;
    obligationId: string;
    eventId: string;
    eventType: string;
    paymentRequest?: boolean | PaymentRequestRow;
    documentId?: string;
    observationId?: string;
    loaded?: LoadedObligation;
  },
): Promise<TMutationResult> {
  const loaded = input.loaded ?? (await loadObligation(tx, { organizationId: input.organizationId, obligationId: input.obligationId }));
  const orgName = loaded.organizationName;
  const today = todayUtc();
  const pr = input.paymentRequest === true ? loaded.paymentRequest : input.paymentRequest || null;
  return {
    invoice: toInvoiceRecord(loaded, orgName, today),
    operation_id: input.eventId,
    event_type: input.eventType,
    ...(input.documentId ? { document_id: input.documentId } : {}),
    ...(input.observationId ? { observation_id: input.observationId } : {}),
    obligation: toObligationProjection(loaded, today),
    ...(pr ? { payment_request: paymentRequestResult(pr) } : {}),
  };
}

// A credit (obligation_credits row, camelCase names) as the wire object (ZCredit).
export const CREDIT_COLUMNS = [
  "id",
  "obligation_id",
  "kind",
  "amount_minor",
  "reason",
  "reference",
  "document_id",
  "created_at",
  "reversed_at",
  "reversal_reason",
] as const satisfies readonly (keyof ObligationCredit)[];
export type CreditRow = Pick<CamelRow<ObligationCredit>, CamelCase<(typeof CREDIT_COLUMNS)[number]>>;

export function toCredit(c: CreditRow): TCredit {
  return {
    id: c.id,
    obligation_id: c.obligationId,
    kind: c.kind as TCredit["kind"],
    amount_minor: c.amountMinor.toString(),
    reason: c.reason,
    reference: c.reference,
    document_id: c.documentId,
    created_at: c.createdAt.toISOString(),
    reversed_at: c.reversedAt ? c.reversedAt.toISOString() : null,
    reversal_reason: c.reversalReason,
  };
}
