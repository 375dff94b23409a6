import { handle } from "@/lib/http/handle";
import { listPaymentInstructionsOp } from "@/lib/operations/payment-instructions";
import { listPaymentInstructions } from "@/lib/payment-instructions/list-payment-instructions";
import { notServed } from "@/lib/http/not-served";

// GET /payment-instructions – every currency's payment instructions
export const GET = handle(listPaymentInstructionsOp, async ({ tx, principal }) => ({
  status: 200,
  body: await listPaymentInstructions(tx, { organizationId: principal.organizationId, principal }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
