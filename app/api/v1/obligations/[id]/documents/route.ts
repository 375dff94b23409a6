import { handle } from "@/lib/http/handle";
import { uploadObligationDocumentOp } from "@/lib/operations/obligations";
import { uploadDocument } from "@/lib/documents/upload-document";
import { notServed } from "@/lib/http/not-served";

// POST /obligations/{id}/documents – upload a document (multipart)
export const POST = handle(uploadObligationDocumentOp, async ({ tx, principal, params, body, files }) => ({
  status: 201,
  body: await uploadDocument(tx, {
    organizationId: principal.organizationId,
    obligationId: params.id,
    expectedVersion: body.expected_version,
    kind: body.kind,
    files,
    principal,
    uploadedBy: "issuer",
  }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
