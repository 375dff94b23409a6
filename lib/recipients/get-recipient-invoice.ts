import type { Tx } from "@/lib/db/client";
import { jsonCamelRow } from "@/lib/db/json";
import { statement } from "@/lib/db/query";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import type { PaymentInstruction } from "@/lib/generated/kysely/database";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { documentItems, messageItems, sharedParts } from "@/lib/obligations/detail-parts";
import { loadObligation } from "@/lib/obligations/load";
import { toDisputeView, toInvoiceRecord, toPromiseView } from "@/lib/obligations/view";
import { toPaymentInstructions } from "@/lib/payment-instructions/view";
import { recipientMaySee } from "@/lib/recipients/visibility";

// GET /recipient/invoice (+ contexts family): the one obligation the session grants, as
// the invoice record plus the documents the recipient may see, the message thread
// (the most recent DETAIL_RECENT_LIMIT, with `messages_total`; earlier ones through
// GET /recipient/messages; lib/recipients/visibility.ts decides what is issuer-only) and how to pay in the
// obligation's currency. Two statements: the obligation, then its documents, messages and
// the organization's payment instructions for that currency together.
export type GetRecipientInvoiceInput = { principal: RecipientPrincipal };

const INSTRUCTION_COLUMNS = [
  "currency",
  "account_holder",
  "iban",
  "bic",
  "account_number",
  "routing_number",
  "sort_code",
  "bank_name",
  "note",
  "updated_at",
] as const satisfies readonly (keyof PaymentInstruction)[];

const parts = statement((q, p: { org: string; id: string; currency: string }) =>
  q.selectNoFrom([
    ...sharedParts(q, p, recipientMaySee),
    q
      .selectFrom("payment_instructions as i")
      .select(jsonCamelRow<PaymentInstruction, (typeof INSTRUCTION_COLUMNS)[number]>("i", INSTRUCTION_COLUMNS).as("instructions"))
      .where("i.organization_id", "=", p.org)
      .where("i.currency", "=", p.currency)
      .as("instructions"),
  ]),
);

export async function getRecipientInvoice(tx: Tx, input: GetRecipientInvoiceInput): Promise<TRecipientInvoice> {
  const p = input.principal;
  const o = await loadObligation(tx, { organizationId: p.organizationId, obligationId: p.obligationId });
  const [r] = await parts.rows(tx, { org: p.organizationId, id: p.obligationId, currency: o.currency });
  const i = r.instructions;
  return {
    ...toInvoiceRecord(o, o.organizationName),
    request_id: p.paymentRequestId,
    payment_reference: o.paymentReference,
    // the JSON's keys are toPaymentInstructions' row fields; only the timestamp needs a Date
    payment_instructions: i ? toPaymentInstructions({ ...i, updatedAt: new Date(i.updatedAt) }) : null,
    documents: documentItems(r.documents),
    messages: messageItems(r.messages),
    messages_total: Number(r.messages_total),
    dispute: toDisputeView(o),
    promise: toPromiseView(o),
  };
}
