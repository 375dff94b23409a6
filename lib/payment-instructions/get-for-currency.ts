import type { Tx } from "@/lib/db";
import type { TPaymentInstructions } from "@/lib/schemas/payment-instructions";
import { toPaymentInstructions } from "@/lib/payment-instructions/view";

export type GetPaymentInstructionsForCurrencyInput = { organizationId: string; currency: string };

// The instructions a payer of an obligation in `currency` sees (recipient invoice), or null.
export async function getPaymentInstructionsForCurrency(tx: Tx, input: GetPaymentInstructionsForCurrencyInput): Promise<TPaymentInstructions | null> {
  const row = await tx.paymentInstruction.findUnique({
    where: { organizationId_currency: { organizationId: input.organizationId, currency: input.currency } },
  });
  return row ? toPaymentInstructions(row) : null;
}
