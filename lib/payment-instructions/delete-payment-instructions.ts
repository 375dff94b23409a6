import type { Tx } from "@/lib/db/client";
import type { IssuerPrincipal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { requireAdminSession } from "@/lib/payment-instructions/view";

export type DeletePaymentInstructionsInput = { organizationId: string; principal: IssuerPrincipal; currency: string };

// DELETE /payment-instructions/{currency}: the hosted page then tells payers to contact the issuer.
export async function deletePaymentInstructions(tx: Tx, input: DeletePaymentInstructionsInput): Promise<void> {
  requireAdminSession(input.principal);
  const r = await tx.paymentInstruction.deleteMany({ where: { organizationId: input.organizationId, currency: input.currency } });
  if (r.count === 0) throw new AppError("not_found", `no payment instructions for ${input.currency}`);
}
