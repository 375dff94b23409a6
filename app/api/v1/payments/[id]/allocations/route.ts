import { handle } from "@/lib/http/handle";
import { allocatePaymentOp } from "@/lib/operations/payments";
import { allocatePayment } from "@/lib/payments/allocate-payment";
import { notServed } from "@/lib/http/not-served";

// POST /payments/{id}/allocations – allocate part of a payment to an obligation (atomic)
export const POST = handle(allocatePaymentOp, async ({ tx, principal, params, body }) => ({
  status: 200,
  body: await allocatePayment(tx, { organizationId: principal.organizationId, paymentId: params.id, principal, body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
