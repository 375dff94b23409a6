import { handle } from "@/lib/http/handle";
import { recipientActionsOp } from "@/lib/operations/recipient";
import { applyRecipientAction } from "@/lib/recipients/apply-recipient-action";

// POST /recipient/actions – apply a recipient action (optimistic concurrency)
export const POST = handle(recipientActionsOp, async ({ tx, principal, body }) => ({
  status: 200,
  body: await applyRecipientAction(tx, { principal, action: body }),
}));
