import { handle } from "@/lib/http/handle";
import { listPaymentsOp, recordPaymentOp } from "@/lib/operations/payments";
import { recordPayment } from "@/lib/payments/record-payment";
import { listPayments } from "@/lib/payments/list-payments";
import { notServed } from "@/lib/http/not-served";

// POST /payments – record an observed payment
export const POST = handle(recordPaymentOp, async ({ tx, principal, body }) => ({
  status: 201,
  body: await recordPayment(tx, { organizationId: principal.organizationId, principal, body }),
}));

// GET /payments – list payments with their allocations, newest first
export const GET = handle(listPaymentsOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await listPayments(tx, { organizationId: principal.organizationId, query: query }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { PUT, PATCH, DELETE } = notServed("GET", "POST");
