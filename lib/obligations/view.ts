import type { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { fromDate, todayUtc } from "@/lib/schemas/common";
import type { TInvoiceRecord, TMutationResult, TObligationProjection } from "@/lib/schemas/obligations";
import { evaluateTerms, summaryStatus, type ConditionState, type TermSpec } from "@/lib/obligations/terms";
import { paymentRequestResult, type PaymentRequestRow } from "@/lib/payment-requests/view";

// Read side of obligations: loading one (or a page) with everything the wire records
// need, and the exact wire objects of service-api.md ("Invoice record", "Obligation
// projection", "Mutation result"). payable_minor / due_minor are recalculated by the
// terms engine on every read (today in UTC).

export const OBLIGATION_INCLUDE = {
  conditions: { orderBy: { position: "asc" } },
  paymentTerms: { orderBy: { sequence: "asc" } },
  contextLinks: { include: { context: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
  paymentRequests: { orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 1 },
} satisfies Prisma.ObligationInclude;

type Row = Prisma.ObligationGetPayload<{ include: typeof OBLIGATION_INCLUDE }>;
export type LoadedObligation = Row & { paymentRequest: Row["paymentRequests"][number] | null };

const withRequest = (row: Row): LoadedObligation => ({ ...row, paymentRequest: row.paymentRequests[0] ?? null });

// The obligation with conditions, terms, context links (+ contexts) and its current
// payment request. 404 not_found when unknown, malformed, of another organization, or
// (with `obligationType`) of another type.
export async function loadObligation(
  tx: Tx,
  organizationId: string,
  obligationId: string,
  opts: { obligationType?: string } = {},
): Promise<LoadedObligation> {
  if (!isUuid(obligationId)) throw notFoundObligation(opts.obligationType);
  const row = await tx.obligation.findFirst({
    where: { id: obligationId, organizationId, ...(opts.obligationType ? { obligationType: opts.obligationType } : {}) },
    include: OBLIGATION_INCLUDE,
  });
  if (!row) throw notFoundObligation(opts.obligationType);
  return withRequest(row);
}

const notFoundObligation = (type?: string) => new AppError("not_found", `${type === "invoice" ? "invoice" : "obligation"} not found`);

// A page of obligations, newest first with a stable order (created_at desc, id desc).
export async function loadObligationPage(
  tx: Tx,
  organizationId: string,
  page: { limit: number; offset: number; obligationType?: string },
): Promise<LoadedObligation[]> {
  const rows = await tx.obligation.findMany({
    where: { organizationId, ...(page.obligationType ? { obligationType: page.obligationType } : {}) },
    include: OBLIGATION_INCLUDE,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.limit,
    skip: page.offset,
  });
  return rows.map(withRequest);
}

export async function organizationName(tx: Tx, organizationId: string): Promise<string> {
  const org = await tx.organization.findUnique({ where: { id: organizationId }, select: { name: true } });
  return org?.name ?? "";
}

// ------------------------------------------------------------------ computed parts

function conditionStates(o: LoadedObligation): ConditionState[] {
  return o.conditions.map((c) => ({ id: c.id, status: c.status as ConditionState["status"], satisfiedOn: c.satisfiedOn ? fromDate(c.satisfiedOn) : null }));
}

function termSpec(t: LoadedObligation["paymentTerms"][number]): TermSpec & { row: typeof t } {
  return {
    row: t,
    sequence: t.sequence,
    amountType: t.amountType as TermSpec["amountType"],
    fixedAmountMinor: t.fixedAmountMinor,
    percentageBasisPoints: t.percentageBasisPoints,
    triggerType: t.triggerType as TermSpec["triggerType"],
    triggerDate: t.triggerDate ? fromDate(t.triggerDate) : null,
    conditionId: t.conditionId,
    dueRule: t.dueRule as TermSpec["dueRule"],
    dueDate: t.dueDate ? fromDate(t.dueDate) : null,
    dueDays: t.dueDays,
  };
}

type Computed = {
  payableMinor: bigint;
  dueMinor: bigint;
  conditions: TInvoiceRecord["conditions"];
  paymentTerms: TInvoiceRecord["payment_terms"];
  contexts: TInvoiceRecord["contexts"];
  condition: { summary: string; status: TInvoiceRecord["condition_status"]; satisfied_on: string };
};

export function compute(o: LoadedObligation, today = todayUtc()): Computed {
  const states = conditionStates(o);
  const ev = evaluateTerms({
    amountMinor: o.amountMinor,
    registeredOn: fromDate(o.createdAt),
    deadline: fromDate(o.deadline),
    today,
    terms: o.paymentTerms.map(termSpec),
    conditions: states,
  });
  const keyOf = new Map(o.conditions.map((c) => [c.id, c.key]));
  const paymentTerms = o.paymentTerms.length
    ? ev.terms.map((t) => {
        const row = (t as ReturnType<typeof termSpec>).row;
        return {
          id: row.id,
          sequence: row.sequence,
          label: row.label,
          amount_type: t.amountType,
          ...(t.fixedAmountMinor != null ? { fixed_amount_minor: t.fixedAmountMinor.toString() } : {}),
          ...(t.percentageBasisPoints != null ? { percentage_basis_points: t.percentageBasisPoints } : {}),
          amount_minor: t.amountMinor.toString(),
          trigger_type: t.triggerType,
          ...(t.triggerDate ? { trigger_date: t.triggerDate } : {}),
          ...(t.conditionId ? { condition_id: t.conditionId, condition_key: keyOf.get(t.conditionId) ?? "" } : {}),
          due_rule: t.dueRule,
          ...(t.dueDate ? { due_date: t.dueDate } : {}),
          ...(t.dueDays != null ? { due_days: t.dueDays } : {}),
          ...(t.triggeredOn ? { triggered_on: t.triggeredOn } : {}),
          ...(t.payableOn ? { payable_on: t.payableOn } : {}),
        };
      })
    : [];

  const conditions = o.conditions.map((c) => ({
    id: c.id,
    key: c.key,
    label: c.label,
    ...(c.externalNamespace !== null && c.externalId !== null ? { external_reference: { namespace: c.externalNamespace, id: c.externalId } } : {}),
    status: c.status as ConditionState["status"],
    ...(c.satisfiedOn ? { satisfied_on: fromDate(c.satisfiedOn) } : {}),
    source: c.source,
    evidence_reference: c.evidenceReference,
  }));

  let condition: Computed["condition"];
  if (o.conditions.length > 0) {
    const status = summaryStatus(states);
    const last = states.reduce<string>((m, c) => (c.satisfiedOn && c.satisfiedOn > m ? c.satisfiedOn : m), "");
    condition = { summary: o.conditionSummary, status, satisfied_on: status === "satisfied" ? last : "" };
  } else if (o.conditionStatus) {
    condition = { summary: o.conditionSummary, status: o.conditionStatus as Computed["condition"]["status"], satisfied_on: fromDate(o.conditionSatisfiedOn) };
  } else {
    condition = { summary: o.conditionSummary, status: "satisfied", satisfied_on: "" };
  }

  const contexts = o.contextLinks.map((l) => ({
    id: l.context.id,
    type: l.context.type as TInvoiceRecord["contexts"][number]["type"],
    kind: l.context.kind as TInvoiceRecord["contexts"][number]["kind"],
    type_label: l.context.typeLabel,
    name: l.context.name,
    reference: l.context.reference,
    relationship_type: l.relationshipType,
    ...(l.attributedMinor !== null && l.attributedMinor > 0n ? { attributed_minor: l.attributedMinor.toString(), currency: o.currency } : {}),
  }));

  return { payableMinor: ev.payableMinor, dueMinor: ev.dueMinor, conditions, paymentTerms, contexts, condition };
}

const party = (name: string, email: string) => (email ? { name, email } : { name });

// ------------------------------------------------------------------ wire objects

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

// The response of every mutating call on an obligation. `loaded`/`orgName` may be passed
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
    orgName?: string;
  },
): Promise<TMutationResult> {
  const loaded = input.loaded ?? (await loadObligation(tx, input.organizationId, input.obligationId));
  const orgName = input.orgName ?? (await organizationName(tx, input.organizationId));
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
