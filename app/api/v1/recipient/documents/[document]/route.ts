import { handle } from "@/lib/http/handle";
import { recipientDownloadDocumentOp } from "@/lib/operations/recipient";
import { attachmentResponse } from "@/lib/documents/download-document";
import { getRecipientDocument } from "@/lib/recipients/recipient-documents";
import { notServed } from "@/lib/http/not-served";

// GET /recipient/documents/{document} – download a document of the obligation as an attachment
export const GET = handle(recipientDownloadDocumentOp, async ({ tx, principal, params }) =>
  attachmentResponse(await getRecipientDocument(tx, { principal, documentId: params.document })),
);

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
