import { hostedUrl } from "@/lib/payment-requests/tokens";

// Payment-request rows -> their wire shapes.

export type PaymentRequestRow = {
  id: string;
  obligationId: string;
  issueNumber: number;
  expiresAt: Date;
  revokedAt: Date | null;
};

// GET /obligations/{id}/payment-request (and the detail views).
export function paymentRequestView(row: PaymentRequestRow) {
  return {
    id: row.id,
    obligation_id: row.obligationId,
    hosted_url: hostedUrl(row.id, row.issueNumber),
    expires_at: row.expiresAt.toISOString(),
    revoked: row.revokedAt !== null,
  };
}

// The `payment_request` of a mutation result: exactly the contract's four fields.
export function paymentRequestResult(row: PaymentRequestRow) {
  const { revoked: _revoked, ...rest } = paymentRequestView(row);
  return rest;
}
