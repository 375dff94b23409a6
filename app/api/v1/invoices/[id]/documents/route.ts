import { handle } from "@/lib/http/handle";
import { uploadInvoiceDocumentOp } from "@/lib/operations/invoices";
import { uploadDocument } from "@/lib/documents/upload-document";
import { notServed } from "@/lib/http/not-served";

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

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
