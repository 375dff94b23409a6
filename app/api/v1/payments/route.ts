import { handle } from "@/lib/http/handle";
import { listPaymentsOp, recordPaymentOp } from "@/lib/operations/payments";
import { recordPayment } from "@/lib/payments/record-payment";
import { listPayments } from "@/lib/payments/list-payments";
import { allocateBasketPayment } from "@/lib/account-links/allocate-basket-payment";
import { notServed } from "@/lib/http/not-served";

// POST /payments – record an observed payment
export const POST = handle(recordPaymentOp, async ({ tx, principal, body }) => {
  const payment = await recordPayment(tx, { organizationId: principal.organizationId, principal, body });
  const remittance = `${body.reference ?? ""} ${body.note ?? ""}`;
  const allocated = await allocateBasketPayment(tx, { organizationId: principal.organizationId, principal, paymentId: payment.id, remittance });
  return { status: 201, body: allocated ?? payment };
});

// GET /payments – list payments with their allocations, newest first
export const GET = handle(listPaymentsOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await listPayments(tx, { organizationId: principal.organizationId, query: query }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { PUT, PATCH, DELETE } = notServed("GET", "POST");
