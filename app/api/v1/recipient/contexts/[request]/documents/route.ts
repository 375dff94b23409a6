import { handle } from "@/lib/http/handle";
import { recipientContextUploadDocumentOp } from "@/lib/operations/recipient";
import { uploadRecipientDocument } from "@/lib/recipients/recipient-documents";

// POST /recipient/contexts/{request}/documents – upload evidence (multipart)
export const POST = handle(recipientContextUploadDocumentOp, async ({ tx, principal, body, files }) => ({
  status: 201,
  body: await uploadRecipientDocument(tx, { principal, expectedVersion: body.expected_version, kind: body.kind, files }),
}));
