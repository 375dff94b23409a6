import { newId } from "@/lib/ids";
import { deriveToken, newExpiry, tokenHash } from "@/lib/payment-requests/tokens";
import type { PaymentRequest } from "@/lib/generated/prisma/client";

// The hosted payment request created atomically with an obligation (issue number 1): the
// row the registration writes in the same statement as the obligation (lib/obligations/register-obligation.ts).
export type NewPaymentRequestInput = { organizationId: string; obligationId: string; now?: Date };

export function newPaymentRequestRow(input: NewPaymentRequestInput): PaymentRequest {
  const id = newId();
  const now = input.now ?? new Date();
  return {
    id,
    organizationId: input.organizationId,
    obligationId: input.obligationId,
    issueNumber: 1,
    tokenHash: tokenHash(deriveToken(id, 1)),
    expiresAt: newExpiry(now),
    revokedAt: null,
    firstOpenedAt: null,
    createdAt: now,
    updatedAt: now,
    payerLanguage: "",
  };
}
