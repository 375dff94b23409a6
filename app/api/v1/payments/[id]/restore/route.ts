import { handle } from "@/lib/http/handle";
import { restorePaymentOp } from "@/lib/operations/payments";
import { restorePayment } from "@/lib/payments/restore-payment";
import { notServed } from "@/lib/http/not-served";

// POST /payments/{id}/restore – put a dismissed payment back in the unallocated queue
export const POST = handle(restorePaymentOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await restorePayment(tx, { organizationId: principal.organizationId, paymentId: params.id, principal }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
