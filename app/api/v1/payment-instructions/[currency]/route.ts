import { handle } from "@/lib/http/handle";
import { deletePaymentInstructionsOp, putPaymentInstructionsOp } from "@/lib/operations/payment-instructions";
import { putPaymentInstructions } from "@/lib/payment-instructions/put-payment-instructions";
import { deletePaymentInstructions } from "@/lib/payment-instructions/delete-payment-instructions";
import { notServed } from "@/lib/http/not-served";

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

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, POST, PATCH } = notServed("PUT", "DELETE");
