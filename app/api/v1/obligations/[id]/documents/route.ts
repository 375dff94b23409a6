import { handle } from "@/lib/http/handle";
import { uploadObligationDocumentOp } from "@/lib/operations/obligations";
import { uploadDocument } from "@/lib/documents/upload-document";
import { prepareDocumentUpload } from "@/lib/documents/prepare-document-upload";
import type { AllowedType } from "@/lib/documents/sniff";
import { notServed } from "@/lib/http/not-served";

// POST /obligations/{id}/documents – upload a document (multipart)
export const POST = handle(
  uploadObligationDocumentOp,
  async ({ tx, principal, params, body, files, prepared }) => ({
    status: 201,
    body: await uploadDocument(tx, {
      organizationId: principal.organizationId,
      obligationId: params.id,
      expectedVersion: body.expected_version,
      kind: body.kind,
      files,
      principal,
      uploadedBy: "issuer",
      contentType: prepared as AllowedType,
    }),
  }),
  { beforeTransaction: (_body, { files }) => prepareDocumentUpload(files) },
);

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
