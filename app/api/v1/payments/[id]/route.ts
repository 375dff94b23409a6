import { handle } from "@/lib/http/handle";
import { getPaymentOp } from "@/lib/operations/payments";
import { getPayment } from "@/lib/payments/get-payment";
import { notServed } from "@/lib/http/not-served";

// GET /payments/{id} – payment with all accepted allocations
export const GET = handle(getPaymentOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await getPayment(tx, { organizationId: principal.organizationId, paymentId: params.id }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
