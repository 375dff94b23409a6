import { handle } from "@/lib/http/handle";
import { recipientContextActionsOp } from "@/lib/operations/recipient";
import { applyRecipientAction } from "@/lib/recipients/apply-recipient-action";

// POST /recipient/contexts/{request}/actions – apply a recipient action (optimistic concurrency)
export const POST = handle(recipientContextActionsOp, async ({ tx, principal, body }) => ({
  status: 200,
  body: await applyRecipientAction(tx, { principal, action: body }),
}));
