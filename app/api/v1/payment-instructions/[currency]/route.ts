import { handle } from "@/lib/http/handle";
import { deletePaymentInstructionsOp, putPaymentInstructionsOp } from "@/lib/operations/payment-instructions";
import { putPaymentInstructions } from "@/lib/payment-instructions/put-payment-instructions";
import { deletePaymentInstructions } from "@/lib/payment-instructions/delete-payment-instructions";

// PUT /payment-instructions/{currency} – create or replace one currency's instructions
export const PUT = handle(putPaymentInstructionsOp, async ({ tx, principal, params, body }) => ({
  status: 200,
  body: await putPaymentInstructions(tx, { organizationId: principal.organizationId, principal, ...params, ...body }),
}));

// DELETE /payment-instructions/{currency} – remove one currency's instructions
export const DELETE = handle(deletePaymentInstructionsOp, async ({ tx, principal, params }) => {
  await deletePaymentInstructions(tx, { organizationId: principal.organizationId, principal, ...params });
  return { status: 204 };
});
