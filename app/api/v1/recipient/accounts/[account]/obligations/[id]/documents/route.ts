import { handle } from "@/lib/http/handle";
import { accountUploadDocumentOp } from "@/lib/operations/recipient-accounts";
import { accountObligationPrincipal } from "@/lib/account-links/account-obligation";
import { uploadRecipientDocument } from "@/lib/recipients/recipient-documents";
import { notServed } from "@/lib/http/not-served";

// POST /recipient/accounts/{account}/obligations/{id}/documents – upload evidence to one obligation of the account
export const POST = handle(accountUploadDocumentOp, async ({ tx, principal, params, body, files }) => ({
  status: 201,
  body: await uploadRecipientDocument(tx, {
    principal: await accountObligationPrincipal(tx, principal, params.id),
    expectedVersion: body.expected_version,
    kind: body.kind,
    files,
  }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
