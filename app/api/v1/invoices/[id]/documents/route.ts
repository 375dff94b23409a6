import { handle } from "@/lib/http/handle";
import { uploadInvoiceDocumentOp } from "@/lib/operations/invoices";
import { uploadDocument } from "@/lib/documents/upload-document";

// POST /invoices/{id}/documents – upload a document to an invoice (multipart)
export const POST = handle(uploadInvoiceDocumentOp, async ({ tx, principal, params, body, files }) => ({
  status: 201,
  body: await uploadDocument(tx, {
    organizationId: principal.organizationId,
    obligationId: params.id,
    expectedVersion: body.expected_version,
    kind: body.kind,
    files,
    principal,
    uploadedBy: "issuer",
    obligationType: "invoice",
  }),
}));
