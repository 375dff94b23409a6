import { AppError } from "@/lib/errors";

// 410 for a revoked or expired account link: the codes of a payment request's link, so the
// payer's page handles both alike.
export function assertAccountUsable(link: { revokedAt: Date | null; expiresAt: Date }, now = new Date()): void {
  if (link.revokedAt) throw new AppError("payment_request_revoked", "this account link was revoked");
  if (link.expiresAt.getTime() <= now.getTime()) throw new AppError("payment_request_expired", "this account link has expired");
}
