import { handle } from "@/lib/http/handle";
import { recipientDownloadDocumentOp } from "@/lib/operations/recipient";
import { attachmentResponse } from "@/lib/documents/download-document";
import { getRecipientDocument } from "@/lib/recipients/recipient-documents";

// GET /recipient/documents/{document} – download a document of the obligation as an attachment
export const GET = handle(recipientDownloadDocumentOp, async ({ tx, principal, params }) =>
  attachmentResponse(await getRecipientDocument(tx, { principal, documentId: params.document })),
);
