import { sql, type Tx } from "@/lib/db/client";
import type { Document, ObligationMessage } from "@/lib/generated/prisma/client";
import { loadObligation, type LoadedObligation } from "@/lib/obligations/load";
import { type CREDIT_COLUMNS, toCredit, toDisputeView, toInvoiceRecord, toObligationProjection, toPromiseView } from "@/lib/obligations/view";
import { paymentRequestView } from "@/lib/payment-requests/view";
import { present } from "@/lib/present";
import type { Selectable } from "kysely";
import type { JsonOf } from "@/lib/db/camel";
import type { Document as DocumentTable, Event, ObligationCredit, ObligationMessage as MessageTable, Reminder } from "@/lib/generated/kysely/database";

// How many of the most recent messages and audit entries a detail (issuer and payer) holds;
// earlier ones are paged through GET /obligations/{id}/messages, /audit-trail and the
// recipient's /messages (docs/security.md, "Bounds"). `messages_total` / `audit_trail_total`
// say how many there are in all.
export const DETAIL_RECENT_LIMIT = 100;

// The parts every detail view adds to the record: what is left to allocate
// (outstanding_minor), the audit trail (the most recent DETAIL_RECENT_LIMIT, oldest first),
// the documents, the messages (likewise), the credits and the payment request view, whose
// `hosted_url` is "" unless `revealLink` (the reader may change obligations). One statement:
// each list is a json_agg over its (organization_id, obligation_id) index.
export async function detailParts(tx: Tx, o: LoadedObligation, revealLink: boolean) {
  const rows = await sql<{
    events: EventJson[];
    events_total: number;
    documents: DocumentJson[];
    messages: MessageJson[];
    messages_total: number;
    credits: CreditJson[];
    reminders: ReminderJson[];
  }>(
    tx,
    `SELECT ${recentJson(EVENTS_SELECT)} AS events, ${countOf("events")} AS events_total,
      ${documentsJson("TRUE")} AS documents,
      ${MESSAGES_JSON} AS messages, ${countOf("obligation_messages")} AS messages_total,
      ${CREDITS_JSON} AS credits,
      ${REMINDERS_JSON} AS reminders`,
    [o.organizationId, o.id, DETAIL_RECENT_LIMIT],
  );
  const { events, events_total, documents, messages, messages_total, credits, reminders } = rows[0];
  return {
    credits: credits.map(creditItem),
    settled: { by_payments_minor: (o.allocatedMinor - o.creditedMinor).toString(), by_credits_minor: o.creditedMinor.toString() },
    outstanding_minor: (o.amountMinor - o.allocatedMinor).toString(),
    payment_reference: o.paymentReference,
    audit_trail: auditItems(events),
    audit_trail_total: Number(events_total),
    documents: documentItems(documents),
    messages: messageItems(messages),
    messages_total: Number(messages_total),
    payment_request: paymentRequestView(present(o.paymentRequest, "payment request"), revealLink),
    dispute: toDisputeView(o),
    promise: toPromiseView(o),
    reminders: reminders.map(reminderItem),
  };
}

// The obligation's rows of `table` ($1 organization, $2 obligation).
const countOf = (table: string) => `(SELECT count(*)::int FROM ${table} t WHERE t.organization_id = $1::uuid AND t.obligation_id = $2::uuid)`;

// The most recent $3 rows of a `select` (aliased x, with created_at and id), oldest first.
const recentJson = (select: string) =>
  `(SELECT coalesce(json_agg(to_json(x) ORDER BY x.created_at, x.id), '[]') FROM (${select} ORDER BY created_at DESC, id DESC LIMIT $3) x)`;

// One page ($3 rows from offset $4) of a `select`, newest first, and whether the obligation
// ($2) is one of the organization's ($1): the statement of the paging endpoints.
export const pageSql = (select: string) => `SELECT EXISTS (SELECT 1 FROM obligations o WHERE o.organization_id = $1::uuid AND o.id = $2::uuid) AS found,
  (SELECT coalesce(json_agg(to_json(x) ORDER BY x.created_at DESC, x.id DESC), '[]')
    FROM (${select} ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4) x) AS items`;

export const EVENTS_SELECT = `SELECT e.id, e.type, e.actor_type, e.actor_id, e.actor_label, e.created_at, e.data->'detail' AS detail
  FROM events e WHERE e.organization_id = $1::uuid AND e.obligation_id = $2::uuid`;

// The JSON rows of this file's statements (lib/db/camel.ts JsonOf: timestamps as text).
export type EventJson = JsonOf<Pick<Selectable<Event>, "id" | "type" | "actor_type" | "actor_id" | "actor_label" | "created_at">> & { detail: unknown };
export type DocumentJson = JsonOf<
  Pick<Selectable<DocumentTable>, "id" | "kind" | "filename" | "content_type" | "size_bytes" | "sha256" | "uploaded_by" | "created_at">
>;
export type MessageJson = JsonOf<Pick<Selectable<MessageTable>, "id" | "author_type" | "author_name" | "body" | "created_at">>;
type CreditJson = JsonOf<Pick<Selectable<ObligationCredit>, (typeof CREDIT_COLUMNS)[number]>>;
type ReminderJson = JsonOf<Pick<Selectable<Reminder>, "step" | "tone" | "channel" | "status" | "scheduled_on" | "language" | "sent_at" | "last_error">>;

export const auditItems = (events: EventJson[]) =>
  events.map((e) => ({
    id: e.id,
    event_type: e.type,
    actor: { type: e.actor_type as "api_key" | "user" | "recipient" | "system", id: e.actor_id, label: e.actor_label },
    created_at: iso(e.created_at),
    detail: e.detail && typeof e.detail === "object" && !Array.isArray(e.detail) ? (e.detail as Record<string, unknown>) : {},
  }));

// An obligation's documents and its messages, oldest first, as json_agg subqueries for a
// statement whose $1 is the organization and $2 the obligation (this file's detail views and
// the recipient's invoice: lib/recipients/get-recipient-invoice.ts); `visible` is an SQL
// condition on the document `d`.
export const documentsJson = (visible: string) => `(SELECT coalesce(json_agg(json_build_object('id', d.id, 'kind', d.kind, 'filename', d.filename,
    'content_type', d.content_type, 'size_bytes', d.size_bytes, 'sha256', d.sha256, 'uploaded_by', d.uploaded_by, 'created_at', d.created_at)
    ORDER BY d.created_at, d.id), '[]')
  FROM documents d WHERE d.organization_id = $1::uuid AND d.obligation_id = $2::uuid AND (${visible}))`;

// The most recent $3 messages, oldest first.
export const MESSAGES_SELECT = `SELECT m.id, m.author_type, m.author_name, m.body, m.created_at
  FROM obligation_messages m WHERE m.organization_id = $1::uuid AND m.obligation_id = $2::uuid`;
export const MESSAGES_JSON = recentJson(MESSAGES_SELECT);
export const MESSAGES_TOTAL = countOf("obligation_messages");

const CREDITS_JSON = `(SELECT coalesce(json_agg(json_build_object('id', c.id, 'obligation_id', c.obligation_id, 'kind', c.kind,
    'amount_minor', c.amount_minor::text, 'reason', c.reason, 'reference', c.reference, 'document_id', c.document_id,
    'created_at', c.created_at, 'reversed_at', c.reversed_at, 'reversal_reason', c.reversal_reason) ORDER BY c.created_at, c.id), '[]')
  FROM obligation_credits c WHERE c.organization_id = $1::uuid AND c.obligation_id = $2::uuid)`;

// The reminders sent, due or failed (docs/reminders.md; the skipped ones are not listed), by step.
const REMINDERS_JSON = `(SELECT coalesce(json_agg(json_build_object('step', r.step, 'tone', r.tone, 'channel', r.channel, 'status', r.status,
    'scheduled_on', r.scheduled_on, 'language', r.language, 'sent_at', r.sent_at, 'last_error', r.last_error) ORDER BY r.step), '[]')
  FROM reminders r WHERE r.organization_id = $1::uuid AND r.obligation_id = $2::uuid AND r.status <> 'skipped')`;

const reminderItem = (r: ReminderJson) => ({
  offset_days: Number(r.step),
  tone: r.tone as "friendly" | "firm" | "final",
  channel: r.channel as "webhook" | "email",
  status: r.status as "sent" | "due" | "failed",
  scheduled_on: String(r.scheduled_on).slice(0, 10),
  language: String(r.language),
  sent_at: r.sent_at ? iso(r.sent_at) : null,
  last_error: String(r.last_error ?? ""),
});

const creditItem = (c: CreditJson) =>
  toCredit({
    id: c.id,
    obligationId: c.obligation_id,
    kind: c.kind,
    amountMinor: BigInt(c.amount_minor),
    reason: c.reason,
    reference: c.reference,
    documentId: c.document_id,
    createdAt: new Date(c.created_at),
    reversedAt: c.reversed_at ? new Date(c.reversed_at) : null,
    reversalReason: c.reversal_reason,
  });

export const documentItems = (rows: DocumentJson[]) =>
  rows.map((d) =>
    toDocumentItem({
      id: d.id,
      kind: d.kind,
      filename: d.filename,
      contentType: d.content_type,
      sizeBytes: d.size_bytes,
      sha256: d.sha256,
      uploadedBy: d.uploaded_by,
      createdAt: new Date(iso(d.created_at)),
    }),
  );

export const messageItems = (rows: MessageJson[]) =>
  rows.map((m) => toMessageItem({ id: m.id, authorType: m.author_type, authorName: m.author_name, body: m.body, createdAt: new Date(iso(m.created_at)) }));

// A timestamp from json_build_object ("…+00:00") as the API writes it (toISOString).
const iso = (v: string) => new Date(v).toISOString();

// The wire items of a document and a message (issuer and recipient views).
export const toDocumentItem = (d: Pick<Document, "id" | "kind" | "filename" | "contentType" | "sizeBytes" | "sha256" | "uploadedBy" | "createdAt">) => ({
  id: d.id,
  kind: d.kind as "invoice" | "supporting" | "payment_evidence" | "bank_observation",
  filename: d.filename,
  content_type: d.contentType,
  size_bytes: d.sizeBytes,
  sha256: d.sha256,
  uploaded_by: d.uploadedBy as "issuer" | "recipient",
  created_at: d.createdAt.toISOString(),
});

export const toMessageItem = (m: Pick<ObligationMessage, "id" | "authorType" | "authorName" | "body" | "createdAt">) => ({
  id: m.id,
  author_type: m.authorType as "issuer" | "recipient",
  author_name: m.authorName,
  body: m.body,
  created_at: m.createdAt.toISOString(),
});

// GET /obligations/{id}: the obligation projection plus the detail parts. `revealLink`:
// whether the reader may see the hosted URL (lib/auth/principal.ts, mayRevealLink).
export type GetObligationDetailInput = { organizationId: string; obligationId: string; revealLink: boolean };

export async function getObligationDetail(tx: Tx, input: GetObligationDetailInput) {
  const { organizationId, obligationId } = input;
  const o = await loadObligation(tx, { organizationId, obligationId });
  return { ...toObligationProjection(o), ...(await detailParts(tx, o, input.revealLink)) };
}

// GET /invoices/{id}: the invoice record plus the detail parts (obligations of type invoice only).
export async function getInvoiceDetail(tx: Tx, input: GetObligationDetailInput) {
  const { organizationId, obligationId } = input;
  const o = await loadObligation(tx, { organizationId, obligationId, obligationType: "invoice" });
  return { ...toInvoiceRecord(o, o.organizationName), ...(await detailParts(tx, o, input.revealLink)) };
}
