import { handle } from "@/lib/http/handle";
import { downloadInvoiceDocumentOp } from "@/lib/operations/invoices";
import { attachmentResponse, getDocumentDownload } from "@/lib/documents/download-document";
import { notServed } from "@/lib/http/not-served";

// GET /invoices/{id}/documents/{document} – download a document of an invoice
export const GET = handle(downloadInvoiceDocumentOp, async ({ tx, principal, params }) =>
  attachmentResponse(
    await getDocumentDownload(tx, {
      organizationId: principal.organizationId,
      obligationId: params.id,
      documentId: params.document,
      obligationType: "invoice",
    }),
  ),
);

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
