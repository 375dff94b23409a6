import { handle } from "@/lib/http/handle";
import { listObligationMessagesOp } from "@/lib/operations/obligations";
import { listObligationMessages } from "@/lib/obligations/list-obligation-messages";
import { notServed } from "@/lib/http/not-served";

// GET /obligations/{id}/messages – the whole message thread, newest first, a page at a time
export const GET = handle(listObligationMessagesOp, async ({ tx, principal, params, query }) => ({
  status: 200,
  body: await listObligationMessages(tx, { organizationId: principal.organizationId, obligationId: params.id, ...query }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
