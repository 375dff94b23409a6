import type { Tx } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import type { TCreateInvoice, TMutationResult } from "@/lib/schemas/obligations";
import { registerObligation } from "@/lib/obligations/register-obligation";

// POST /invoices: the invoice source adapter. An invoice is an obligation of type
// `invoice` where the organization is the creditor and the recipient the debtor.
export type CreateInvoiceInput = { organizationId: string; principal: Principal; body: TCreateInvoice };

export function createInvoice(tx: Tx, input: CreateInvoiceInput): Promise<TMutationResult> {
  const b = input.body;
  return registerObligation(tx, {
    organizationId: input.organizationId,
    principal: input.principal,
    body: {
      obligation_type: "invoice",
      organization_role: "creditor",
      external_reference: b.external_reference ?? { namespace: "invoice", id: b.invoice_number },
      debtor: b.recipient,
      amount_minor: b.amount_minor,
      currency: b.currency,
      deadline: b.due_date,
      business_context: { invoice_number: b.invoice_number, ...(b.description !== undefined ? { description: b.description } : {}) },
    },
  });
}
