import { Prisma } from "@/lib/generated/prisma/client";
import { sql, type Tx } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { fromDate, todayUtc } from "@/lib/schemas/common";
import type { TCredit, TDisputeView, TInvoiceRecord, TMutationResult, TObligationProjection, TPromiseView } from "@/lib/schemas/obligations";
import { addDays, evaluateTerms, summaryStatus, type ConditionState, type TermSpec } from "@/lib/obligations/terms";
import { paymentRequestResult, type PaymentRequestRow } from "@/lib/payment-requests/view";
import { present } from "@/lib/present";
import type { JsonRow } from "@/lib/db/json-row";

// Read side of obligations: loading one (or a page) with everything the wire records
// need, and the exact wire objects of lib/schemas/obligations.ts (ZInvoiceRecord,
// ZObligationProjection, ZMutationResult). payable_minor / due_minor are recalculated by the
// terms engine on every read (today in UTC).

export const OBLIGATION_INCLUDE = {
  conditions: { orderBy: { position: "asc" } },
  paymentTerms: { orderBy: { sequence: "asc" } },
  contextLinks: { include: { context: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
  paymentRequests: { orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 1 },
} satisfies Prisma.ObligationInclude;

type Row = Prisma.ObligationGetPayload<{ include: typeof OBLIGATION_INCLUDE }>;
// organizationName: the issuer's display name (invoice records' issuer_name), read with the row.
export type LoadedObligation = Row & { paymentRequest: Row["paymentRequests"][number] | null; organizationName: string };

// The obligation with conditions, terms, context links (+ contexts) and its current
// payment request. 404 not_found when unknown, malformed, of another organization, or
// (with `obligationType`) of another type.
export type LoadObligationInput = { organizationId: string; obligationId: string; obligationType?: string };

export async function loadObligation(tx: Tx, input: LoadObligationInput): Promise<LoadedObligation> {
  const { organizationId, obligationId, ...opts } = input;
  if (!isUuid(obligationId)) throw notFoundObligation(opts.obligationType);
  const rows = await loadRaw(
    tx,
    Prisma.sql`o.id = ${obligationId}::uuid AND o.organization_id = ${organizationId}::uuid${
      opts.obligationType ? Prisma.sql` AND o.obligation_type = ${opts.obligationType}` : Prisma.empty
    }`,
  );
  if (rows.length !== 1) throw notFoundObligation(opts.obligationType);
  return rows[0];
}

const notFoundObligation = (type?: string) => new AppError("not_found", `${type === "invoice" ? "invoice" : "obligation"} not found`);

// A page of obligations, newest first with a stable order (created_at desc, id desc), with
// their parts, in one statement. The page's ids come first (an index range scan,
// materialized as an array), then their parts: with OFFSET in the same query level as the
// json_agg subqueries, PostgreSQL would build the parts of every skipped row too (seconds
// for a page at offset 10 000).
export type LoadObligationPageInput = { organizationId: string; limit: number; offset: number; obligationType?: string };

export async function loadObligationPage(tx: Tx, page: LoadObligationPageInput): Promise<LoadedObligation[]> {
  const { organizationId } = page;
  const pick = Prisma.sql`SELECT id FROM obligations
      WHERE organization_id = ${organizationId}::uuid${page.obligationType ? Prisma.sql` AND obligation_type = ${page.obligationType}` : Prisma.empty}
      ORDER BY created_at DESC, id DESC
      LIMIT ${page.limit} OFFSET ${page.offset}`;
  return loadRaw(tx, Prisma.sql`o.organization_id = ${organizationId}::uuid`, pickedObligations(pick, organizationId), Prisma.sql`ORDER BY picked.n`);
}

// `FROM` the obligations a page picked (`pick`: SELECT id ... ORDER BY ... LIMIT/OFFSET), as
// `picked(id, n)` and `o`: each looked up by its primary key, whatever the statistics say.
// (As a plain join, a table without statistics yet, such as one just filled by an import,
// got a generic plan that read ALL the organization's obligations and hash-joined the page's
// ids: 10.6 ms instead of 1.3 ms for a page of 50 among 8 290; docs/benchmarks.md, step 15.
// OFFSET 0 keeps the planner from flattening the lateral look-up into such a join. The
// organization in the look-up too: its key, and what routes it to one shard on Citus.)
export function pickedObligations(pick: Prisma.Sql, organizationId: string): Prisma.Sql {
  return Prisma.sql`unnest(ARRAY(${pick})) WITH ORDINALITY AS picked(id, n)
    CROSS JOIN LATERAL (SELECT * FROM obligations WHERE organization_id = ${organizationId}::uuid AND id = picked.id OFFSET 0) o`;
}

// The obligations with these ids (of this organization), in the order of `ids`.
export async function loadObligationsByIds(tx: Tx, input: { organizationId: string; ids: string[] }): Promise<LoadedObligation[]> {
  const { organizationId, ids } = input;
  if (ids.length === 0) return [];
  const rows = await loadRaw(tx, Prisma.sql`o.organization_id = ${organizationId}::uuid AND o.id = ANY(${ids}::uuid[])`);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [r] : [];
  });
}

// The obligation after writing `set` (column changes, model field names; a value or
// `{ increment: n }`) to its row, in ONE statement: the UPDATE's RETURNING row with its parts
// (which earlier statements of the transaction may have changed). Values travel as one JSON
// parameter expanded by json_populate_record into the columns' own types, as
// lib/db/insert-rows.ts does. Only for an obligation the caller has locked and knows to exist
// (mutateObligation).
export async function loadObligationUpdated(
  tx: Tx,
  input: { organizationId: string; obligationId: string; set: Record<string, unknown> },
): Promise<LoadedObligation> {
  const { organizationId, obligationId, set } = input;
  const fields = Object.keys(set);
  if (fields.length === 0) return loadObligation(tx, { organizationId, obligationId });
  const values: Record<string, unknown> = {};
  const assignments = fields.map((f) => {
    const c = f.replace(/[A-Z]/g, (x) => `_${x.toLowerCase()}`);
    if (!/^[a-z][a-z0-9_]*$/.test(c)) throw new Error(`loadObligationUpdated: not a column: ${c}`);
    const v = set[f];
    if (v !== null && typeof v === "object" && !(v instanceof Date)) {
      const keys = Object.keys(v);
      if (keys.length !== 1 || keys[0] !== "increment") throw new Error(`loadObligationUpdated: ${f}: a value or { increment } only`);
      values[c] = (v as { increment: unknown }).increment;
      return `${c} = o.${c} + r.${c}`;
    }
    values[c] = v;
    return `${c} = r.${c}`;
  });
  const row = JSON.stringify(values, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
  const rows = await loadRaw(
    tx,
    Prisma.sql`TRUE`,
    Prisma.sql`u o`,
    Prisma.empty,
    Prisma.sql`WITH u AS (
      UPDATE obligations o SET ${Prisma.raw(assignments.join(", "))}
      FROM json_populate_record(NULL::obligations, ${row}::json) r
      WHERE o.id = ${obligationId}::uuid AND o.organization_id = ${organizationId}::uuid
      RETURNING o.*)`,
  );
  if (rows.length !== 1) throw notFoundObligation();
  return rows[0];
}

// The clock's sweep only (lib/scheduler/sweep.ts): obligations of the organization it sweeps,
// by the ids it has just locked.
export async function loadObligationsForSweep(tx: Tx, input: { organizationId: string; ids: string[] }): Promise<LoadedObligation[]> {
  const { organizationId, ids } = input;
  if (ids.length === 0) return [];
  return loadRaw(tx, Prisma.sql`o.organization_id = ${organizationId}::uuid AND o.id = ANY(${ids}::uuid[])`);
}

// One statement for obligations and all their parts (Prisma's include sends one query per
// relation): each part is a correlated json_agg subquery served by its
// (organization_id, obligation_id) index. Bigints travel as text inside the JSON.
async function loadRaw(
  tx: Tx,
  where: Prisma.Sql,
  from: Prisma.Sql = Prisma.sql`obligations o`,
  order: Prisma.Sql = Prisma.empty,
  withClause: Prisma.Sql = Prisma.empty,
): Promise<LoadedObligation[]> {
  const q = Prisma.sql`
    ${withClause}
    SELECT o.*,
      (SELECT coalesce(json_agg(json_build_object(
          'id', c.id, 'organization_id', c.organization_id, 'obligation_id', c.obligation_id, 'position', c.position, 'key', c.key,
          'label', c.label, 'external_namespace', c.external_namespace, 'external_id', c.external_id, 'status', c.status,
          'satisfied_on', c.satisfied_on, 'source', c.source, 'evidence_reference', c.evidence_reference) ORDER BY c.position), '[]')
        FROM obligation_conditions c WHERE c.organization_id = o.organization_id AND c.obligation_id = o.id) AS j_conditions,
      (SELECT coalesce(json_agg(json_build_object(
          'id', t.id, 'organization_id', t.organization_id, 'obligation_id', t.obligation_id, 'sequence', t.sequence, 'label', t.label,
          'amount_type', t.amount_type, 'fixed_amount_minor', t.fixed_amount_minor::text, 'percentage_basis_points', t.percentage_basis_points,
          'trigger_type', t.trigger_type, 'trigger_date', t.trigger_date, 'condition_id', t.condition_id, 'due_rule', t.due_rule,
          'due_date', t.due_date, 'due_days', t.due_days) ORDER BY t.sequence), '[]')
        FROM payment_terms t WHERE t.organization_id = o.organization_id AND t.obligation_id = o.id) AS j_terms,
      (SELECT coalesce(json_agg(json_build_object(
          'id', l.id, 'organization_id', l.organization_id, 'obligation_id', l.obligation_id, 'context_id', l.context_id,
          'relationship_type', l.relationship_type, 'attributed_minor', l.attributed_minor::text, 'created_at', l.created_at,
          'context', json_build_object('id', bc.id, 'organization_id', bc.organization_id, 'type', bc.type, 'kind', bc.kind, 'name', bc.name,
            'reference', bc.reference, 'type_label', bc.type_label, 'external_namespace', bc.external_namespace,
            'external_id', bc.external_id, 'created_at', bc.created_at)) ORDER BY l.created_at, l.id), '[]')
        FROM obligation_context_links l JOIN business_contexts bc ON bc.organization_id = l.organization_id AND bc.id = l.context_id
        WHERE l.organization_id = o.organization_id AND l.obligation_id = o.id) AS j_links,
      (SELECT json_build_object('id', r.id, 'organization_id', r.organization_id, 'obligation_id', r.obligation_id,
          'issue_number', r.issue_number, 'token_hash', r.token_hash, 'expires_at', r.expires_at, 'revoked_at', r.revoked_at,
          'first_opened_at', r.first_opened_at, 'created_at', r.created_at, 'updated_at', r.updated_at, 'payer_language', r.payer_language)
        FROM payment_requests r WHERE r.organization_id = o.organization_id AND r.obligation_id = o.id
        ORDER BY r.created_at DESC, r.id DESC LIMIT 1) AS j_request,
      (SELECT g.name FROM organizations g WHERE g.id = o.organization_id) AS j_organization_name
    FROM ${from}
    WHERE ${where}
    ${order}`;
  const rows = await sql<RawObligation>(tx, q.text, q.values);
  return rows.map(fromRawObligation);
}

type J = JsonRow;
type RawObligation = J & { j_conditions: J[]; j_terms: J[]; j_links: J[]; j_request: J | null; j_organization_name: string | null };

// JSON dates/timestamps back to the Date values Prisma would give.
const jDate = (v: string | null): Date | null => (v === null ? null : v.length === 10 ? new Date(`${v}T00:00:00.000Z`) : new Date(v));
const jBig = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

function fromRawObligation(r: RawObligation): LoadedObligation {
  const paymentRequest: LoadedObligation["paymentRequest"] = r.j_request
    ? {
        id: r.j_request.id,
        organizationId: r.j_request.organization_id,
        obligationId: r.j_request.obligation_id,
        issueNumber: r.j_request.issue_number,
        tokenHash: r.j_request.token_hash,
        expiresAt: present(jDate(r.j_request.expires_at), "payment request expires_at"),
        revokedAt: jDate(r.j_request.revoked_at),
        firstOpenedAt: jDate(r.j_request.first_opened_at),
        createdAt: present(jDate(r.j_request.created_at), "payment request created_at"),
        updatedAt: present(jDate(r.j_request.updated_at), "payment request updated_at"),
        payerLanguage: r.j_request.payer_language ?? "",
      }
    : null;
  return {
    id: r.id,
    organizationId: r.organization_id,
    reference: r.reference,
    paymentReference: r.payment_reference,
    obligationType: r.obligation_type,
    organizationRole: r.organization_role,
    externalNamespace: r.external_namespace,
    externalId: r.external_id,
    creditorName: r.creditor_name,
    creditorEmail: r.creditor_email,
    debtorName: r.debtor_name,
    debtorEmail: r.debtor_email,
    amountMinor: r.amount_minor,
    allocatedMinor: r.allocated_minor,
    currency: r.currency,
    deadline: r.deadline,
    invoiceNumber: r.invoice_number,
    description: r.description,
    label: r.label,
    conditionSummary: r.condition_summary,
    conditionStatus: r.condition_status,
    conditionSatisfiedOn: r.condition_satisfied_on,
    status: r.status,
    version: r.version,
    acknowledged: r.acknowledged,
    expectedPaymentDate: r.expected_payment_date,
    reportedPaymentDate: r.reported_payment_date,
    reportedAmountMinor: r.reported_amount_minor,
    reportedReference: r.reported_reference,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    nextScheduledOn: r.next_scheduled_on ?? null,
    projectionRev: r.projection_rev,
    creditedMinor: BigInt(r.credited_minor ?? 0),
    cancelledAt: r.cancelled_at ? new Date(r.cancelled_at) : null,
    disputeStatus: r.dispute_status ?? null,
    disputeReason: r.dispute_reason ?? null,
    disputeMessage: r.dispute_message ?? null,
    disputeAmountMinor: r.dispute_amount_minor ?? null,
    disputeOpenedAt: r.dispute_opened_at ?? null,
    disputeResolvedAt: r.dispute_resolved_at ?? null,
    disputeResolutionMessage: r.dispute_resolution_message ?? null,
    promiseStatus: r.promise_status ?? null,
    promiseDate: r.promise_date ?? null,
    promiseAmountMinor: r.promise_amount_minor ?? null,
    promiseBaselineMinor: r.promise_baseline_minor ?? null,
    promiseMadeAt: r.promise_made_at ?? null,
    promiseDecidedAt: r.promise_decided_at ?? null,
    conditions: r.j_conditions.map((c) => ({
      id: c.id,
      organizationId: c.organization_id,
      obligationId: c.obligation_id,
      position: c.position,
      key: c.key,
      label: c.label,
      externalNamespace: c.external_namespace,
      externalId: c.external_id,
      status: c.status,
      satisfiedOn: jDate(c.satisfied_on),
      source: c.source,
      evidenceReference: c.evidence_reference,
    })),
    paymentTerms: r.j_terms.map((t) => ({
      id: t.id,
      organizationId: t.organization_id,
      obligationId: t.obligation_id,
      sequence: t.sequence,
      label: t.label,
      amountType: t.amount_type,
      fixedAmountMinor: jBig(t.fixed_amount_minor),
      percentageBasisPoints: t.percentage_basis_points,
      triggerType: t.trigger_type,
      triggerDate: jDate(t.trigger_date),
      conditionId: t.condition_id,
      dueRule: t.due_rule,
      dueDate: jDate(t.due_date),
      dueDays: t.due_days,
    })),
    contextLinks: r.j_links.map((l) => ({
      id: l.id,
      organizationId: l.organization_id,
      obligationId: l.obligation_id,
      contextId: l.context_id,
      relationshipType: l.relationship_type,
      attributedMinor: jBig(l.attributed_minor),
      createdAt: present(jDate(l.created_at), "context link created_at"),
      context: {
        id: l.context.id,
        organizationId: l.context.organization_id,
        type: l.context.type,
        kind: l.context.kind,
        name: l.context.name,
        reference: l.context.reference,
        typeLabel: l.context.type_label,
        externalNamespace: l.context.external_namespace,
        externalId: l.context.external_id,
        createdAt: present(jDate(l.context.created_at), "context created_at"),
      },
    })),
    paymentRequests: paymentRequest ? [paymentRequest] : [],
    paymentRequest,
    organizationName: r.j_organization_name ?? "",
  };
}

export async function organizationName(tx: Tx, input: { organizationId: string }): Promise<string> {
  const org = await tx.organization.findUnique({ where: { id: input.organizationId }, select: { name: true } });
  return org?.name ?? "";
}

// The organization's name as the caller already knows it (an API key or a session carries
// it), else read.
export async function organizationNameFor(tx: Tx, input: { principal: Principal; organizationId: string }): Promise<string> {
  const { principal: p, organizationId } = input;
  if ((p.kind === "api_key" || p.kind === "user") && p.organizationId === organizationId) return p.organizationName;
  return organizationName(tx, { organizationId });
}

// ------------------------------------------------------------------ computed parts

function conditionStates(o: LoadedObligation): ConditionState[] {
  return o.conditions.map((c) => ({ id: c.id, status: c.status as ConditionState["status"], satisfiedOn: c.satisfiedOn ? fromDate(c.satisfiedOn) : null }));
}

// A stored payment term as the terms engine reads it (also used by the scheduler and the
// reconciliation candidates).
export function termSpecOf(t: LoadedObligation["paymentTerms"][number]): TermSpec {
  return {
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

function termSpec(t: LoadedObligation["paymentTerms"][number]): TermSpec & { row: typeof t } {
  const spec = termSpecOf(t) as TermSpec & { row: typeof t };
  spec.row = t;
  return spec;
}

type Computed = {
  payableMinor: bigint;
  dueMinor: bigint;
  conditions: TInvoiceRecord["conditions"];
  paymentTerms: TInvoiceRecord["payment_terms"];
  contexts: TInvoiceRecord["contexts"];
  condition: { summary: string; status: TInvoiceRecord["condition_status"]; satisfied_on: string };
  // The last day (from `today` on) with this same evaluation: the day before the next day on
  // which a term triggers or falls due ("9999-12-31" when none will).
  stableUntil: string;
};

// One evaluation per loaded obligation and day: a mutation's result (invoice record and
// projection) and its event's projection read the same one. Loaded obligations are never
// changed in place (a change is a new load), so the memo cannot go stale.
const computed = new WeakMap<LoadedObligation, { today: string; c: Computed }>();

export function compute(o: LoadedObligation, today = todayUtc()): Computed {
  const hit = computed.get(o);
  if (hit?.today === today) return hit.c;
  const c = evaluate(o, today);
  computed.set(o, { today, c });
  return c;
}

function evaluate(o: LoadedObligation, today: string): Computed {
  const states = conditionStates(o);
  const ev = evaluateTerms({
    amountMinor: o.amountMinor,
    registeredOn: fromDate(o.createdAt),
    deadline: fromDate(o.deadline),
    today,
    terms: o.paymentTerms.map(termSpec),
    conditions: states,
  });
  // The wire objects are built field by field in the documented order (optional fields
  // only when set): lists evaluate this for every row, and conditional object spreads cost
  // several times more (docs/benchmarks.md, step 7).
  const paymentTerms: Computed["paymentTerms"] = [];
  if (o.paymentTerms.length) {
    for (const t of ev.terms) {
      const row = (t as ReturnType<typeof termSpec>).row;
      const w: Record<string, unknown> = { id: row.id, sequence: row.sequence, label: row.label, amount_type: t.amountType };
      if (t.fixedAmountMinor != null) w.fixed_amount_minor = t.fixedAmountMinor.toString();
      if (t.percentageBasisPoints != null) w.percentage_basis_points = t.percentageBasisPoints;
      w.amount_minor = t.amountMinor.toString();
      w.trigger_type = t.triggerType;
      if (t.triggerDate) w.trigger_date = t.triggerDate;
      if (t.conditionId) {
        w.condition_id = t.conditionId;
        w.condition_key = o.conditions.find((c) => c.id === t.conditionId)?.key ?? "";
      }
      w.due_rule = t.dueRule;
      if (t.dueDate) w.due_date = t.dueDate;
      if (t.dueDays != null) w.due_days = t.dueDays;
      if (t.triggeredOn) w.triggered_on = t.triggeredOn;
      if (t.payableOn) w.payable_on = t.payableOn;
      paymentTerms.push(w as Computed["paymentTerms"][number]);
    }
  }

  const conditions = o.conditions.map((c, i) => {
    const w: Record<string, unknown> = { id: c.id, key: c.key, label: c.label };
    if (c.externalNamespace !== null && c.externalId !== null) w.external_reference = { namespace: c.externalNamespace, id: c.externalId };
    w.status = c.status;
    if (states[i].satisfiedOn) w.satisfied_on = states[i].satisfiedOn;
    w.source = c.source;
    w.evidence_reference = c.evidenceReference;
    return w as Computed["conditions"][number];
  });

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

  const contexts = o.contextLinks.map((l) => {
    const w: Record<string, unknown> = {
      id: l.context.id,
      type: l.context.type,
      kind: l.context.kind,
      type_label: l.context.typeLabel,
      name: l.context.name,
      reference: l.context.reference,
      relationship_type: l.relationshipType,
    };
    if (l.attributedMinor !== null && l.attributedMinor > 0n) {
      w.attributed_minor = l.attributedMinor.toString();
      w.currency = o.currency;
    }
    return w as Computed["contexts"][number];
  });

  let next = "";
  for (const t of ev.terms) {
    if (t.triggeredOn !== null && t.triggeredOn > today && (next === "" || t.triggeredOn < next)) next = t.triggeredOn;
    if (t.payableOn !== null && t.payableOn > today && (next === "" || t.payableOn < next)) next = t.payableOn;
  }
  const stableUntil = next === "" ? "9999-12-31" : addDays(next, -1);

  return { payableMinor: ev.payableMinor, dueMinor: ev.dueMinor, conditions, paymentTerms, contexts, condition, stableUntil };
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

// The columns of an obligation as one line of a short list (the allocation form's open
// obligations, the overview's most overdue): who, what, how much, by when.
export const OBLIGATION_LINE_SELECT = {
  id: true,
  reference: true,
  organizationRole: true,
  debtorName: true,
  creditorName: true,
  invoiceNumber: true,
  currency: true,
  amountMinor: true,
  allocatedMinor: true,
  deadline: true,
} as const;

// A credit (obligation_credits row, model field names) as the wire object (ZCredit).
export type CreditRow = {
  id: string;
  obligationId: string;
  kind: string;
  amountMinor: bigint;
  reason: string;
  reference: string;
  documentId: string | null;
  createdAt: Date;
  reversedAt: Date | null;
  reversalReason: string;
};

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
