import { sql, type Tx } from "@/lib/db/client";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { loadObligation } from "@/lib/obligations/load";
import { toDisputeView, toInvoiceRecord, toPromiseView } from "@/lib/obligations/view";
import {
  DETAIL_RECENT_LIMIT,
  documentItems,
  documentsJson,
  type DocumentJson,
  MESSAGES_JSON,
  MESSAGES_TOTAL,
  messageItems,
  type MessageJson,
} from "@/lib/obligations/get-obligation-detail";
import { type PaymentInstructionRow, toPaymentInstructions } from "@/lib/payment-instructions/view";
import { RECIPIENT_VISIBLE_DOCUMENTS_SQL } from "@/lib/recipients/visibility";

// GET /recipient/invoice (+ contexts family): the one obligation the session grants, as
// the invoice record plus the documents the recipient may see, the message thread
// (the most recent DETAIL_RECENT_LIMIT, with `messages_total`; earlier ones through
// GET /recipient/messages; lib/recipients/visibility.ts decides what is issuer-only) and how to pay in the
// obligation's currency. Two statements: the obligation, then its documents, messages and
// the organization's payment instructions for that currency together.
export type GetRecipientInvoiceInput = { principal: RecipientPrincipal };

const PARTS_SQL = `SELECT ${documentsJson(RECIPIENT_VISIBLE_DOCUMENTS_SQL)} AS documents, ${MESSAGES_JSON} AS messages, ${MESSAGES_TOTAL} AS messages_total,
  (SELECT json_build_object('currency', i.currency, 'accountHolder', i.account_holder, 'iban', i.iban, 'bic', i.bic,
      'accountNumber', i.account_number, 'routingNumber', i.routing_number, 'sortCode', i.sort_code, 'bankName', i.bank_name,
      'note', i.note, 'updatedAt', i.updated_at)
    FROM payment_instructions i WHERE i.organization_id = $1::uuid AND i.currency = $4) AS instructions`;

export async function getRecipientInvoice(tx: Tx, input: GetRecipientInvoiceInput): Promise<TRecipientInvoice> {
  const p = input.principal;
  const o = await loadObligation(tx, { organizationId: p.organizationId, obligationId: p.obligationId });
  const [parts] = await sql<{
    documents: DocumentJson[];
    messages: MessageJson[];
    messages_total: number;
    instructions: (Omit<PaymentInstructionRow, "updatedAt"> & { updatedAt: string }) | null;
  }>(tx, PARTS_SQL, [p.organizationId, p.obligationId, DETAIL_RECENT_LIMIT, o.currency]);
  const i = parts.instructions;
  return {
    ...toInvoiceRecord(o, o.organizationName),
    request_id: p.paymentRequestId,
    payment_reference: o.paymentReference,
    // the JSON's keys are toPaymentInstructions' row fields; only the timestamp needs a Date
    payment_instructions: i ? toPaymentInstructions({ ...i, updatedAt: new Date(i.updatedAt) }) : null,
    documents: documentItems(parts.documents),
    messages: messageItems(parts.messages),
    messages_total: Number(parts.messages_total),
    dispute: toDisputeView(o),
    promise: toPromiseView(o),
  };
}
