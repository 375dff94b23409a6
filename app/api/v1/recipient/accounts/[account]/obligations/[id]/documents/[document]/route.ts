import { handle } from "@/lib/http/handle";
import { accountDownloadDocumentOp } from "@/lib/operations/recipient-accounts";
import { accountObligationPrincipal } from "@/lib/account-links/account-obligation";
import { attachmentResponse } from "@/lib/documents/download-document";
import { getRecipientDocument } from "@/lib/recipients/recipient-documents";
import { notServed } from "@/lib/http/not-served";

// GET /recipient/accounts/{account}/obligations/{id}/documents/{document} – download a document of one obligation of the account
export const GET = handle(accountDownloadDocumentOp, async ({ tx, principal, params }) =>
  attachmentResponse(await getRecipientDocument(tx, { principal: await accountObligationPrincipal(tx, principal, params.id), documentId: params.document })),
);

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
