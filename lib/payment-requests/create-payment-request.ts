import type { Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import { deriveToken, newExpiry, tokenHash } from "@/lib/payment-requests/tokens";

// The hosted payment request created atomically with an obligation (issue number 1).
export type CreatePaymentRequestInput = { organizationId: string; obligationId: string; now?: Date };

export async function createPaymentRequest(tx: Tx, input: CreatePaymentRequestInput) {
  const id = newId();
  const now = input.now ?? new Date();
  return tx.paymentRequest.create({
    data: {
      id,
      organizationId: input.organizationId,
      obligationId: input.obligationId,
      issueNumber: 1,
      tokenHash: tokenHash(deriveToken(id, 1)),
      expiresAt: newExpiry(now),
      createdAt: now,
      updatedAt: now,
    },
  });
}
