import { handle } from "@/lib/http/handle";
import { dismissPaymentOp } from "@/lib/operations/payments";
import { dismissPayment } from "@/lib/payments/dismiss-payment";
import { notServed } from "@/lib/http/not-served";

// POST /payments/{id}/dismiss – set aside a payment that is not a receivable
export const POST = handle(dismissPaymentOp, async ({ tx, principal, params, body }) => ({
  status: 200,
  body: await dismissPayment(tx, { organizationId: principal.organizationId, paymentId: params.id, principal, body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
