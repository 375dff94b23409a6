import { handle } from "@/lib/http/handle";
import { markInboxItemReadOp } from "@/lib/operations/inbox";
import { markInboxItemRead } from "@/lib/inbox/mark-inbox-item-read";
import { notServed } from "@/lib/http/not-served";

// POST /inbox/{id}/read – mark an inbox item read
export const POST = handle(markInboxItemReadOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await markInboxItemRead(tx, { principal, itemId: params.id }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
