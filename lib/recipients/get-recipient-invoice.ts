import type { Tx } from "@/lib/db";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { loadObligation, organizationName, toInvoiceRecord } from "@/lib/obligations/view";
import { toDocumentItem, toMessageItem } from "@/lib/obligations/get-obligation-detail";
import { getPaymentInstructionsForCurrency } from "@/lib/payment-instructions/get-for-currency";
import { RECIPIENT_VISIBLE_DOCUMENTS } from "@/lib/recipients/visibility";

// GET /recipient/invoice (+ contexts family): the one obligation the session grants, as
// the invoice record plus the documents the recipient may see and the message thread
// (lib/recipients/visibility.ts decides what is issuer-only).
export type GetRecipientInvoiceInput = { principal: RecipientPrincipal };

export async function getRecipientInvoice(tx: Tx, input: GetRecipientInvoiceInput): Promise<TRecipientInvoice> {
  const p = input.principal;
  // sequential on purpose: `tx` may be an interactive transaction (one connection)
  const o = await loadObligation(tx, { organizationId: p.organizationId, obligationId: p.obligationId });
  const where = { organizationId: p.organizationId, obligationId: p.obligationId };
  const order = [{ createdAt: "asc" as const }, { id: "asc" as const }];
  const documents = await tx.document.findMany({ where: { ...where, AND: [RECIPIENT_VISIBLE_DOCUMENTS] }, orderBy: order });
  const messages = await tx.obligationMessage.findMany({ where, orderBy: order });
  const instructions = await getPaymentInstructionsForCurrency(tx, { organizationId: p.organizationId, currency: o.currency });
  return {
    ...toInvoiceRecord(o, o.organizationName),
    request_id: p.paymentRequestId,
    payment_reference: o.paymentReference,
    payment_instructions: instructions,
    documents: documents.map(toDocumentItem),
    messages: messages.map(toMessageItem),
  };
}
