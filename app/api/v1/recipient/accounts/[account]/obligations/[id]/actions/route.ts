import { handle } from "@/lib/http/handle";
import { accountActionOp } from "@/lib/operations/recipient-accounts";
import { accountObligationPrincipal } from "@/lib/account-links/account-obligation";
import { applyRecipientAction } from "@/lib/recipients/apply-recipient-action";
import { notServed } from "@/lib/http/not-served";

// POST /recipient/accounts/{account}/obligations/{id}/actions – a recipient action on one obligation of the account
export const POST = handle(accountActionOp, async ({ tx, principal, params, body }) => ({
  status: 200,
  body: await applyRecipientAction(tx, { principal: await accountObligationPrincipal(tx, principal, params.id), action: body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
