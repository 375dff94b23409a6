import { handle } from "@/lib/http/handle";
import { downloadInvoiceDocumentOp } from "@/lib/operations/invoices";
import { attachmentResponse, getDocumentDownload } from "@/lib/documents/download-document";

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
