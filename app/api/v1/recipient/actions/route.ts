import { handle } from "@/lib/http/handle";
import { recipientActionsOp } from "@/lib/operations/recipient";
import { applyRecipientAction } from "@/lib/recipients/apply-recipient-action";
import { notServed } from "@/lib/http/not-served";

// POST /recipient/actions – apply a recipient action (optimistic concurrency)
export const POST = handle(recipientActionsOp, async ({ tx, principal, body }) => ({
  status: 200,
  body: await applyRecipientAction(tx, { principal, action: body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
