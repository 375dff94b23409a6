import type { Tx } from "@/lib/db";
import type { Document, ObligationMessage } from "@/lib/generated/prisma/client";
import { loadObligation, organizationName, toInvoiceRecord, toObligationProjection, type LoadedObligation } from "@/lib/obligations/view";
import { paymentRequestView } from "@/lib/payment-requests/view";

// The parts every detail view adds to the record: what is left to allocate
// (outstanding_minor), the audit trail (oldest first), the documents, the messages and the
// payment request view.
export async function detailParts(tx: Tx, o: LoadedObligation) {
  // sequential on purpose: `tx` may be an interactive transaction (one connection)
  const where = { organizationId: o.organizationId, obligationId: o.id };
  const order = [{ createdAt: "asc" as const }, { id: "asc" as const }];
  const events = await tx.event.findMany({ where, orderBy: order });
  const documents = await tx.document.findMany({ where, orderBy: order });
  const messages = await tx.obligationMessage.findMany({ where, orderBy: order });
  return {
    outstanding_minor: (o.amountMinor - o.allocatedMinor).toString(),
    payment_reference: o.paymentReference,
    audit_trail: events.map((e) => {
      const data = (e.data ?? {}) as { detail?: Record<string, unknown> };
      return {
        id: e.id,
        event_type: e.type,
        actor: { type: e.actorType as "api_key" | "user" | "recipient" | "system", id: e.actorId, label: e.actorLabel },
        created_at: e.createdAt.toISOString(),
        detail: data.detail && typeof data.detail === "object" ? data.detail : {},
      };
    }),
    documents: documents.map(toDocumentItem),
    messages: messages.map(toMessageItem),
    payment_request: paymentRequestView(o.paymentRequest!),
  };
}

// The wire items of a document and a message (issuer and recipient views).
export const toDocumentItem = (d: Document) => ({
  id: d.id,
  kind: d.kind as "invoice" | "supporting" | "payment_evidence" | "bank_observation",
  filename: d.filename,
  content_type: d.contentType,
  size_bytes: d.sizeBytes,
  sha256: d.sha256,
  uploaded_by: d.uploadedBy as "issuer" | "recipient",
  created_at: d.createdAt.toISOString(),
});

export const toMessageItem = (m: ObligationMessage) => ({
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
  const o = await loadObligation(tx, organizationId, obligationId);
  return { ...toObligationProjection(o), ...(await detailParts(tx, o)) };
}

// GET /invoices/{id}: the invoice record plus the detail parts (obligations of type invoice only).
export async function getInvoiceDetail(tx: Tx, input: GetObligationDetailInput) {
  const { organizationId, obligationId } = input;
  const o = await loadObligation(tx, organizationId, obligationId, { obligationType: "invoice" });
  return { ...toInvoiceRecord(o, await organizationName(tx, organizationId)), ...(await detailParts(tx, o)) };
}
