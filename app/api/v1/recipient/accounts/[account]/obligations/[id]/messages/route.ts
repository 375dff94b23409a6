import { handle } from "@/lib/http/handle";
import { accountMessagesOp } from "@/lib/operations/recipient-accounts";
import { accountObligationPrincipal } from "@/lib/account-links/account-obligation";
import { listObligationMessages } from "@/lib/obligations/list-obligation-messages";
import { notServed } from "@/lib/http/not-served";

// GET /recipient/accounts/{account}/obligations/{id}/messages – the thread of one obligation of the account, newest first, a page at a time
export const GET = handle(accountMessagesOp, async ({ tx, principal, params, query }) => {
  const p = await accountObligationPrincipal(tx, principal, params.id);
  return { status: 200, body: await listObligationMessages(tx, { organizationId: p.organizationId, obligationId: p.obligationId, ...query }) };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
