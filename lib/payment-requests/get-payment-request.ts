import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { loadObligation } from "@/lib/obligations/load";
import { paymentRequestView, type PaymentRequestRow } from "@/lib/payment-requests/view";

// 410 for a revoked or expired hosted request (documented per endpoint in the OpenAPI document).
export function assertUsable(pr: PaymentRequestRow, now = new Date()): void {
  if (pr.revokedAt) throw new AppError("payment_request_revoked", "the hosted payment request was revoked");
  if (pr.expiresAt.getTime() <= now.getTime()) throw new AppError("payment_request_expired", "the hosted payment request has expired");
}

// GET /obligations/{id}/payment-request: { id, obligation_id, hosted_url, expires_at, revoked, payment_reference }.
export type GetPaymentRequestInput = { organizationId: string; obligationId: string };

export async function getPaymentRequest(tx: Tx, input: GetPaymentRequestInput) {
  const o = await loadObligation(tx, { organizationId: input.organizationId, obligationId: input.obligationId });
  if (!o.paymentRequest) throw new AppError("not_found", "payment request not found");
  assertUsable(o.paymentRequest);
  return { ...paymentRequestView(o.paymentRequest), payment_reference: o.paymentReference };
}
