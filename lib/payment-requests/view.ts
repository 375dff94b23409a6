import { hostedUrl } from "@/lib/payment-requests/tokens";

// Payment-request rows -> their wire shapes.

export type PaymentRequestRow = {
  id: string;
  organizationId: string;
  obligationId: string;
  issueNumber: number;
  expiresAt: Date;
  revokedAt: Date | null;
};

// GET /obligations/{id}/payment-request (and the detail views). `revealLink` false (a
// read-only principal reading a detail): `hosted_url` is "" (the field keeps its type; the
// URL is a write capability, docs/security.md).
export function paymentRequestView(row: PaymentRequestRow, revealLink = true) {
  return {
    id: row.id,
    obligation_id: row.obligationId,
    hosted_url: revealLink ? hostedUrl(row) : "",
    expires_at: row.expiresAt.toISOString(),
    revoked: row.revokedAt !== null,
  };
}

// The `payment_request` of a mutation result: exactly the contract's four fields.
export function paymentRequestResult(row: PaymentRequestRow) {
  const { revoked: _revoked, ...rest } = paymentRequestView(row);
  return rest;
}
