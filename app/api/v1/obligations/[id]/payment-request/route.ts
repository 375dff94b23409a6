import { handle } from "@/lib/http/handle";
import { getPaymentRequestOp } from "@/lib/operations/obligations";
import { getPaymentRequest } from "@/lib/payment-requests/get-payment-request";
import { notServed } from "@/lib/http/not-served";

// GET /obligations/{id}/payment-request – the hosted payment request (410 when revoked or expired)
export const GET = handle(getPaymentRequestOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await getPaymentRequest(tx, { organizationId: principal.organizationId, obligationId: params.id }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
