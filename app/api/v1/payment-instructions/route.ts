import { handle } from "@/lib/http/handle";
import { listPaymentInstructionsOp } from "@/lib/operations/payment-instructions";
import { listPaymentInstructions } from "@/lib/payment-instructions/list-payment-instructions";

// GET /payment-instructions – every currency's payment instructions
export const GET = handle(listPaymentInstructionsOp, async ({ tx, principal }) => ({
  status: 200,
  body: await listPaymentInstructions(tx, { organizationId: principal.organizationId, principal }),
}));
