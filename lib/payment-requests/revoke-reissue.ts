import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { deriveToken, newExpiry, tokenHash } from "@/lib/payment-requests/tokens";

// Revokes the hosted link: recipient calls with it (and sessions opened with it) get
// 410 payment_request_revoked from now on.
export type PaymentRequestChangeInput = { organizationId: string; paymentRequestId: string; now?: Date };

export async function revokePaymentRequest(tx: Tx, input: PaymentRequestChangeInput): Promise<void> {
  const now = input.now ?? new Date();
  const n = await tx.paymentRequest.updateMany({
    where: { id: input.paymentRequestId, organizationId: input.organizationId, revokedAt: null },
    data: { revokedAt: now, updatedAt: now },
  });
  if (n.count !== 1) throw new AppError("invalid_state", "the hosted link is already revoked");
}

// Reissues the hosted link: the next issue number derives a new token (the old link no
// longer matches), a new expires_at, revocation cleared. Recipient sessions opened with an
// earlier issue end here.
export async function reissuePaymentRequest(tx: Tx, input: PaymentRequestChangeInput) {
  const now = input.now ?? new Date();
  const current = await tx.paymentRequest.findFirst({ where: { id: input.paymentRequestId, organizationId: input.organizationId } });
  if (!current) throw new AppError("not_found", "payment request not found");
  const issueNumber = current.issueNumber + 1;
  const n = await tx.paymentRequest.updateMany({
    where: { id: current.id, organizationId: input.organizationId, issueNumber: current.issueNumber },
    data: { issueNumber, tokenHash: tokenHash(deriveToken(current.id, issueNumber)), expiresAt: newExpiry(now), revokedAt: null, updatedAt: now },
  });
  if (n.count !== 1) throw new AppError("version_conflict", "the payment request changed concurrently; reload and retry");
  await tx.recipientSession.deleteMany({ where: { organizationId: input.organizationId, paymentRequestId: current.id, issueNumber: { lt: issueNumber } } });
  return { ...current, issueNumber };
}
