import { handle } from "@/lib/http/handle";
import { listInboxOp } from "@/lib/operations/inbox";
import { listInboxItems } from "@/lib/inbox/list-inbox-items";
import { notServed } from "@/lib/http/not-served";

// GET /inbox – what payers did, newest first (filters: kind, unread)
export const GET = handle(listInboxOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await listInboxItems(tx, { organizationId: principal.organizationId, query }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
