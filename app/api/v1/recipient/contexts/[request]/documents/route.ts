import { handle } from "@/lib/http/handle";
import { recipientContextUploadDocumentOp } from "@/lib/operations/recipient";
import { uploadRecipientDocument } from "@/lib/recipients/recipient-documents";
import { prepareDocumentUpload } from "@/lib/documents/prepare-document-upload";
import type { AllowedType } from "@/lib/documents/sniff";
import { notServed } from "@/lib/http/not-served";

// POST /recipient/contexts/{request}/documents – upload evidence (multipart)
export const POST = handle(
  recipientContextUploadDocumentOp,
  async ({ tx, principal, body, files, prepared }) => ({
    status: 201,
    body: await uploadRecipientDocument(tx, {
      principal,
      expectedVersion: body.expected_version,
      kind: body.kind,
      files,
      contentType: prepared as AllowedType,
    }),
  }),
  { beforeTransaction: (_body, { files }) => prepareDocumentUpload(files) },
);

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
