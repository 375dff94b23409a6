import type { Tx } from "@/lib/db/client";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import type { UploadedFile } from "@/lib/http/body";
import type { TMutationResult } from "@/lib/schemas/obligations";
import { uploadDocument, type DocumentKind } from "@/lib/documents/upload-document";
import type { AllowedType } from "@/lib/documents/sniff";
import { getDocumentDownload, type DocumentDownload } from "@/lib/documents/download-document";
import { RECIPIENT_VISIBLE_DOCUMENTS } from "@/lib/recipients/visibility";
import { assertPayerRoom } from "@/lib/recipients/payer-room";
import { recordInboxItem } from "@/lib/inbox/record-inbox-item";

// POST /recipient/documents (+ contexts): the obligations upload (same sniffing, bounds,
// SHA-256, version + 1, event obligation.document_added) with uploaded_by "recipient",
// within the payer's bounds (lib/recipients/payer-room.ts).
export type UploadRecipientDocumentInput = {
  principal: RecipientPrincipal;
  expectedVersion: number;
  kind?: DocumentKind;
  files: Record<string, UploadedFile>;
  contentType?: AllowedType;
};

export async function uploadRecipientDocument(tx: Tx, input: UploadRecipientDocumentInput): Promise<TMutationResult> {
  const p = input.principal;
  const result = await uploadDocument(tx, {
    organizationId: p.organizationId,
    obligationId: p.obligationId,
    expectedVersion: input.expectedVersion,
    kind: input.kind,
    files: input.files,
    principal: p,
    uploadedBy: "recipient",
    guard: async (bytes) => {
      await assertPayerRoom(tx, { organizationId: p.organizationId, obligationId: p.obligationId, documents: 1, bytes });
    },
    contentType: input.contentType,
  });
  // The issuer's inbox shows the upload (lib/inbox), with its file name.
  const doc = result.document_id
    ? await tx.document.findFirst({ where: { organizationId: p.organizationId, id: result.document_id }, select: { filename: true, kind: true } })
    : null;
  await recordInboxItem(tx, {
    organizationId: p.organizationId,
    obligationId: p.obligationId,
    kind: "document",
    eventId: result.operation_id,
    detail: { document_id: result.document_id ?? null, filename: doc?.filename ?? "", kind: doc?.kind ?? "" },
  });
  return result;
}

// GET /recipient/documents/{document} (+ contexts): only documents of the session's
// obligation that the recipient may see; anything else is 404.
export type GetRecipientDocumentInput = { principal: RecipientPrincipal; documentId: string };

export function getRecipientDocument(tx: Tx, input: GetRecipientDocumentInput): Promise<DocumentDownload> {
  const { principal: p, documentId } = input;
  return getDocumentDownload(tx, {
    organizationId: p.organizationId,
    obligationId: p.obligationId,
    documentId,
    visibleWhere: RECIPIENT_VISIBLE_DOCUMENTS,
  });
}
