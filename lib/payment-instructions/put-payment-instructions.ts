import type { Tx } from "@/lib/db/client";
import type { IssuerPrincipal } from "@/lib/auth/principal";
import type { TPaymentInstructions, TPaymentInstructionsInput } from "@/lib/schemas/payment-instructions";
import { requireAdminSession, toPaymentInstructions } from "@/lib/payment-instructions/view";

export type PutPaymentInstructionsInput = { organizationId: string; principal: IssuerPrincipal; currency: string } & TPaymentInstructionsInput;

// PUT /payment-instructions/{currency}: replaces the whole record (a field left out is
// cleared), creating it when the currency had none.
export async function putPaymentInstructions(tx: Tx, input: PutPaymentInstructionsInput): Promise<TPaymentInstructions> {
  requireAdminSession(input.principal);
  const data = {
    accountHolder: input.account_holder,
    iban: input.iban ?? null,
    bic: input.bic ?? null,
    accountNumber: input.account_number ?? null,
    routingNumber: input.routing_number ?? null,
    sortCode: input.sort_code ?? null,
    bankName: input.bank_name ?? null,
    note: input.note ?? null,
    updatedAt: new Date(),
  };
  const row = await tx.paymentInstruction.upsert({
    where: { organizationId_currency: { organizationId: input.organizationId, currency: input.currency } },
    create: { organizationId: input.organizationId, currency: input.currency, ...data },
    update: data,
  });
  return toPaymentInstructions(row);
}
