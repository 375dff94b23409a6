import { sql, type Tx } from "@/lib/db";
import type { Document, ObligationMessage } from "@/lib/generated/prisma/client";
import { loadObligation, toDisputeView, toInvoiceRecord, toObligationProjection, toPromiseView, type LoadedObligation } from "@/lib/obligations/view";
import { paymentRequestView } from "@/lib/payment-requests/view";
import { present } from "@/lib/present";
import type { JsonRow } from "@/lib/db/json-row";

// The parts every detail view adds to the record: what is left to allocate
// (outstanding_minor), the audit trail (oldest first), the documents, the messages and the
// payment request view. One statement: each list is a json_agg over its
// (organization_id, obligation_id) index.
export async function detailParts(tx: Tx, o: LoadedObligation) {
  const rows = await sql<{ events: J[]; documents: J[]; messages: J[] }>(
    tx,
    `SELECT
      (SELECT coalesce(json_agg(json_build_object('id', e.id, 'type', e.type, 'actor_type', e.actor_type, 'actor_id', e.actor_id,
          'actor_label', e.actor_label, 'created_at', e.created_at, 'detail', e.data->'detail') ORDER BY e.created_at, e.id), '[]')
        FROM events e WHERE e.organization_id = $1::uuid AND e.obligation_id = $2::uuid) AS events,
      ${documentsJson("TRUE")} AS documents,
      ${MESSAGES_JSON} AS messages`,
    [o.organizationId, o.id],
  );
  const { events, documents, messages } = rows[0];
  return {
    outstanding_minor: (o.amountMinor - o.allocatedMinor).toString(),
    payment_reference: o.paymentReference,
    audit_trail: events.map((e) => ({
      id: e.id as string,
      event_type: e.type as string,
      actor: { type: e.actor_type as "api_key" | "user" | "recipient" | "system", id: e.actor_id as string, label: e.actor_label as string },
      created_at: iso(e.created_at),
      detail: e.detail && typeof e.detail === "object" && !Array.isArray(e.detail) ? (e.detail as Record<string, unknown>) : {},
    })),
    documents: documentItems(documents),
    messages: messageItems(messages),
    payment_request: paymentRequestView(present(o.paymentRequest, "payment request")),
    dispute: toDisputeView(o),
    promise: toPromiseView(o),
  };
}

// An obligation's documents and its messages, oldest first, as json_agg subqueries for a
// statement whose $1 is the organization and $2 the obligation (this file's detail views and
// the recipient's invoice: lib/recipients/get-recipient-invoice.ts); `visible` is an SQL
// condition on the document `d`.
export const documentsJson = (visible: string) => `(SELECT coalesce(json_agg(json_build_object('id', d.id, 'kind', d.kind, 'filename', d.filename,
    'content_type', d.content_type, 'size_bytes', d.size_bytes, 'sha256', d.sha256, 'uploaded_by', d.uploaded_by, 'created_at', d.created_at)
    ORDER BY d.created_at, d.id), '[]')
  FROM documents d WHERE d.organization_id = $1::uuid AND d.obligation_id = $2::uuid AND (${visible}))`;

export const MESSAGES_JSON = `(SELECT coalesce(json_agg(json_build_object('id', m.id, 'author_type', m.author_type, 'author_name', m.author_name,
    'body', m.body, 'created_at', m.created_at) ORDER BY m.created_at, m.id), '[]')
  FROM obligation_messages m WHERE m.organization_id = $1::uuid AND m.obligation_id = $2::uuid)`;

export const documentItems = (rows: J[]) =>
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

export const messageItems = (rows: J[]) =>
  rows.map((m) => toMessageItem({ id: m.id, authorType: m.author_type, authorName: m.author_name, body: m.body, createdAt: new Date(iso(m.created_at)) }));

export type J = JsonRow;
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

// GET /obligations/{id}: the obligation projection plus the detail parts.
export type GetObligationDetailInput = { organizationId: string; obligationId: string };

export async function getObligationDetail(tx: Tx, input: GetObligationDetailInput) {
  const { organizationId, obligationId } = input;
  const o = await loadObligation(tx, { organizationId, obligationId });
  return { ...toObligationProjection(o), ...(await detailParts(tx, o)) };
}

// GET /invoices/{id}: the invoice record plus the detail parts (obligations of type invoice only).
export async function getInvoiceDetail(tx: Tx, input: GetObligationDetailInput) {
  const { organizationId, obligationId } = input;
  const o = await loadObligation(tx, { organizationId, obligationId, obligationType: "invoice" });
  return { ...toInvoiceRecord(o, o.organizationName), ...(await detailParts(tx, o)) };
}
