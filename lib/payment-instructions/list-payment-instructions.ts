import type { Tx } from "@/lib/db/client";
import type { IssuerPrincipal } from "@/lib/auth/principal";
import type { TPaymentInstructions } from "@/lib/schemas/payment-instructions";
import { requireAdminSession, toPaymentInstructions } from "@/lib/payment-instructions/view";

export type ListPaymentInstructionsInput = { organizationId: string; principal: IssuerPrincipal };

// GET /payment-instructions: every currency's instructions, by currency code.
export async function listPaymentInstructions(tx: Tx, input: ListPaymentInstructionsInput): Promise<{ items: TPaymentInstructions[] }> {
  requireAdminSession(input.principal);
  const rows = await tx.paymentInstruction.findMany({ where: { organizationId: input.organizationId }, orderBy: { currency: "asc" } });
  return { items: rows.map(toPaymentInstructions) };
}
