import { randomBytes } from "node:crypto";
import { db, type Tx } from "@/lib/db/client";
import { isUniqueViolationOf } from "@/lib/db/errors";
import type { Principal } from "@/lib/auth/principal";
import { AppError, AppErrorWordedLater } from "@/lib/errors";
import { findReferenceHolder, LIVE_REFERENCE_INDEX } from "@/lib/obligations/find-reference-holder";
import { newId } from "@/lib/ids";
import { recordEvent } from "@/lib/events/record-event";
import { toDate } from "@/lib/schemas/common";
import type { TMutationResult, TRegisterObligation } from "@/lib/schemas/obligations";
import { checkTerms, resolveTerms, termRows } from "@/lib/obligations/term-input";
import { organizationNameFor, type LoadedObligation } from "@/lib/obligations/load";
import { mutationResult, NO_DISPUTE_OR_PROMISE, type NoDisputeOrPromiseField, toObligationProjection } from "@/lib/obligations/view";
import { newPaymentRequestRow } from "@/lib/payment-requests/new-payment-request";
import { type QueryCreator, sql as raw } from "kysely";
import { columnsJson } from "@/lib/db/camel";
import { statement } from "@/lib/db/query";
import type { DB, ObligationProjection } from "@/lib/generated/kysely/database";
import { CONDITION_COLUMNS, LINK_COLUMNS, OBLIGATION_COLUMNS, REQUEST_COLUMNS, TERM_COLUMNS } from "@/lib/obligations/load";
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
  const terms = resolveTerms(body.payment_terms ?? [], {
    byKey: (key) => byKey.get(key),
    byId: (id) => byClientId.get(id),
    unknown: "references an unknown condition",
  });
  const amount = BigInt(body.amount_minor);
  checkTerms(amount, terms, new Set(conditions.map((c) => c.id)), true);

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
    duplicateOf: null,
  };
  const conditionRows = conditions.map(({ clientId: _c, satisfiedOn, ...c }) => ({
    ...c,
    organizationId,
    obligationId,
    satisfiedOn: satisfiedOn ? toDate(satisfiedOn) : null,
  }));
  const paymentTermRows = termRows(organizationId, obligationId, terms);
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
    paymentTerms: [...paymentTermRows].sort((a, b) => a.sequence - b.sequence),
    contextLinks: linkRows.map((l) => ({ ...l, context: present(byId.get(l.contextId), "linked context") })),
    paymentRequest,
    organizationName: org.name,
  };
  // The obligation and all its parts in one statement, then its event: both held back and
  // sent with the transaction's next statement or its COMMIT, in the same write (their
  // failure, a unique violation, is the transaction's). An external reference that names a
  // live obligation already: 409 duplicate naming it (read once the transaction rolled back).
  const ref = body.external_reference;
  await INSERT.later(
    tx,
    {
      obligation: columnsJson([created]),
      conditions: columnsJson(conditionRows),
      terms: columnsJson(paymentTermRows),
      links: columnsJson(linkRows),
      request: columnsJson([paymentRequest]),
      // The list projection, stored with the row: the first list read computes nothing
      // (lib/obligations/stored-projection.ts).
      projection: columnsJson([storedProjectionRow(loaded, today)]),
    },
    (err) =>
      isUniqueViolationOf(err, LIVE_REFERENCE_INDEX)
        ? new AppErrorWordedLater("duplicate", `external_reference ${ref.namespace}/${ref.id} already names an obligation which is not cancelled`, async () => {
            const holder = await findReferenceHolder(db(), { organizationId, namespace: ref.namespace, id: ref.id });
            return holder && `external_reference ${ref.namespace}/${ref.id} already names obligation ${holder}, which is not cancelled`;
          })
        : err,
  );
  const event = await recordEvent(tx, {
    organizationId,
    type: "obligation.registered",
    principal: input.principal,
    obligationId,
    data: { obligation: toObligationProjection(loaded) },
    detail: { reference: loaded.reference },
  });
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

// The columns each table's rows carry (the dispute and promise columns of a new obligation stay NULL).
const NEW_OBLIGATION_COLUMNS = OBLIGATION_COLUMNS.filter((c) => !c.startsWith("dispute_") && !c.startsWith("promise_"));
const PROJECTION_COLUMNS = [
  "obligation_id",
  "organization_id",
  "rev",
  "format",
  "valid_from",
  "valid_until",
  "projection",
] as const satisfies readonly (keyof ObligationProjection)[];

// INSERT INTO `table` (columns) SELECT columns FROM the rows of one JSON parameter, expanded
// into the table's own column types (lib/db/camel.ts, columnsJson).
function insertJson<T extends keyof DB & string>(q: QueryCreator<DB>, table: T, columns: readonly (keyof DB[T] & string)[], rows: string) {
  return q
    .insertInto(table)
    .columns(columns)
    .expression((e) => e.selectFrom(raw<DB[T]>`json_populate_recordset(NULL::${raw.raw(table)}, ${rows}::json)`.as("r")).select(columns as never));
}

// One statement for the obligation and its parts; the foreign keys between them are checked at the statement's end.
const INSERT = statement((q, p: { obligation: string; conditions: string; terms: string; links: string; request: string; projection: string }) =>
  insertJson(
    q
      .with("w_obligation", (w) => insertJson(w, "obligations", NEW_OBLIGATION_COLUMNS, p.obligation))
      .with("w_conditions", (w) => insertJson(w, "obligation_conditions", CONDITION_COLUMNS, p.conditions))
      .with("w_terms", (w) => insertJson(w, "payment_terms", TERM_COLUMNS, p.terms))
      .with("w_links", (w) => insertJson(w, "obligation_context_links", LINK_COLUMNS, p.links))
      .with("w_request", (w) => insertJson(w, "payment_requests", REQUEST_COLUMNS, p.request)) as unknown as QueryCreator<DB>,
    "obligation_projections",
    PROJECTION_COLUMNS,
    p.projection,
  ),
);
