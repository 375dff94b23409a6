import { handle } from "@/lib/http/handle";
import { getPaymentOp } from "@/lib/operations/payments";
import { getPayment } from "@/lib/payments/get-payment";

// GET /payments/{id} – payment with all accepted allocations
export const GET = handle(getPaymentOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await getPayment(tx, { organizationId: principal.organizationId, paymentId: params.id }),
}));
