import { handle } from "@/lib/http/handle";
import { downloadObligationDocumentOp } from "@/lib/operations/obligations";
import { attachmentResponse, getDocumentDownload } from "@/lib/documents/download-document";

// GET /obligations/{id}/documents/{document} – download a document as an attachment
export const GET = handle(downloadObligationDocumentOp, async ({ tx, principal, params }) =>
  attachmentResponse(await getDocumentDownload(tx, { organizationId: principal.organizationId, obligationId: params.id, documentId: params.document })),
);
