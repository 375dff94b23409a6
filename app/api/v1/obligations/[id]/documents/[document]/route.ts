import { handle } from "@/lib/http/handle";
import { downloadObligationDocumentOp } from "@/lib/operations/obligations";
import { attachmentResponse, getDocumentDownload } from "@/lib/documents/download-document";
import { notServed } from "@/lib/http/not-served";

// GET /obligations/{id}/documents/{document} – download a document as an attachment
export const GET = handle(downloadObligationDocumentOp, async ({ tx, principal, params }) =>
  attachmentResponse(await getDocumentDownload(tx, { organizationId: principal.organizationId, obligationId: params.id, documentId: params.document })),
);

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
