import { handle } from "@/lib/http/handle";
import { recipientMessagesOp } from "@/lib/operations/recipient";
import { listObligationMessages } from "@/lib/obligations/list-obligation-messages";
import { notServed } from "@/lib/http/not-served";

// GET /recipient/messages – the whole message thread of the link's obligation, newest first, a page at a time
export const GET = handle(recipientMessagesOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await listObligationMessages(tx, { organizationId: principal.organizationId, obligationId: principal.obligationId, ...query }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
