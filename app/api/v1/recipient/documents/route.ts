import { handle } from "@/lib/http/handle";
import { recipientUploadDocumentOp } from "@/lib/operations/recipient";
import { uploadRecipientDocument } from "@/lib/recipients/recipient-documents";
import { notServed } from "@/lib/http/not-served";

// POST /recipient/documents – upload evidence (multipart)
export const POST = handle(recipientUploadDocumentOp, async ({ tx, principal, body, files }) => ({
  status: 201,
  body: await uploadRecipientDocument(tx, { principal, expectedVersion: body.expected_version, kind: body.kind, files }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
