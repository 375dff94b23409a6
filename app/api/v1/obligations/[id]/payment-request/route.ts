import { handle } from "@/lib/http/handle";
import { getPaymentRequestOp } from "@/lib/operations/obligations";
import { getPaymentRequest } from "@/lib/payment-requests/get-payment-request";

// GET /obligations/{id}/payment-request – the hosted payment request (410 when revoked or expired)
export const GET = handle(getPaymentRequestOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await getPaymentRequest(tx, { organizationId: principal.organizationId, obligationId: params.id }),
}));
