import { z } from "zod";
import { ZDate, ZMinor, ZUuid } from "@/lib/schemas/common";
import { ZPaymentInstructions } from "@/lib/schemas/payment-instructions";
import {
  DISPUTE_REASONS,
  ZDisputeView,
  ZDocumentItem,
  ZExpectedVersion,
  ZInvoiceRecord,
  ZMessageItem,
  ZPaymentReference,
  ZPromiseView,
} from "@/lib/schemas/obligations";

// How far ahead a payer may promise to pay (days after today, UTC).
export const PROMISE_HORIZON_DAYS = 180;

// Wire shapes of the recipient (secure-link holder) endpoints. Shared by the API, the
// OpenAPI document and the forms of the hosted page (components/recipient).

// ---------------------------------------------------------------- session exchange

export const ZRecipientSessionExchange = z
  .strictObject({
    token: z.string().min(1).max(512).meta({ description: "The token from the fragment of the hosted URL (`/r/{request}#{token}`)" }),
  })
  .meta({ title: "RecipientSessionExchange" });
export type TRecipientSessionExchange = z.infer<typeof ZRecipientSessionExchange>;

export const ZRecipientSession = z
  .strictObject({
    invoice_id: ZUuid.meta({ description: "The id of the one obligation (invoice record) the link grants" }),
    request_id: ZUuid.optional().meta({ description: "The id of the hosted payment request" }),
  })
  .meta({ title: "RecipientSession" });
export type TRecipientSession = z.infer<typeof ZRecipientSession>;

// ---------------------------------------------------------------- actions

const v = { expected_version: ZExpectedVersion };

export const ZRecipientAcknowledge = z
  .strictObject({ action: z.literal("acknowledge"), ...v })
  .meta({ description: "Sets `acknowledged` (409 `invalid_state` when already acknowledged). Event obligation.acknowledged" });

export const ZRecipientShareDates = z
  .strictObject({ action: z.literal("share_dates"), ...v, expected_payment_date: ZDate.meta({ description: "When the recipient expects to pay" }) })
  .meta({ description: "Sets `expected_payment_date`. Event obligation.dates_shared" });

export const ZRecipientReportPayment = z
  .strictObject({
    action: z.literal("report_payment"),
    ...v,
    reported_payment_date: ZDate.meta({ description: "The day the recipient says it paid" }),
    amount_minor: ZMinor.optional().meta({ description: "The amount the recipient says it paid, in minor units of the obligation's currency" }),
    reference: z.string().max(200).optional().meta({ description: "The payment reference (e.g. bank transfer reference)" }),
    note: z.string().max(4000).optional(),
  })
  .meta({
    description:
      "Records the recipient's claim: `reported_payment_date` is set and the status moves to PAYMENT_CLAIMED unless the obligation is already PARTIALLY_RECONCILED or RECONCILED. It does not settle anything (allocated_minor is unchanged). Event obligation.payment_reported",
  });

export const ZRecipientPostMessage = z
  .strictObject({ action: z.literal("post_message"), ...v, message: z.string().min(1).max(4000) })
  .meta({ description: "Adds a message to the thread the issuer sees. Event obligation.message_posted" });

export const ZRecipientDispute = z
  .strictObject({
    action: z.literal("dispute"),
    ...v,
    reason: z.enum(DISPUTE_REASONS).meta({ description: "not_received, wrong_amount, already_paid, quality or other" }),
    message: z.string().trim().min(1).max(4000).meta({ description: "What is wrong, in the payer's words" }),
    amount_minor: ZMinor.optional().meta({ description: "The amount disputed, at most the obligation's amount" }),
  })
  .meta({
    description:
      "Opens a dispute (409 `invalid_state` while one is open): `dispute` on the obligation; obligation.overdue events wait until the issuer resolves it. Event obligation.disputed",
  });

export const ZRecipientPromisePayment = z
  .strictObject({
    action: z.literal("promise_payment"),
    ...v,
    date: ZDate.meta({ description: `The day the payer promises to pay: today (UTC) or later, at most ${PROMISE_HORIZON_DAYS} days ahead (else 422)` }),
    amount_minor: ZMinor.optional().meta({ description: "The amount promised, at most what is outstanding (default: what is outstanding)" }),
  })
  .meta({
    description:
      "Promises a payment (replacing an open promise): `promise` on the obligation; kept when the settled amount has grown by the amount by `date` + 3 days (promise.kept), else promise.broken. 409 `invalid_state` when nothing is outstanding. Event obligation.payment_promised",
  });

export const ZRecipientAction = z
  .discriminatedUnion("action", [
    ZRecipientAcknowledge,
    ZRecipientShareDates,
    ZRecipientReportPayment,
    ZRecipientPostMessage,
    ZRecipientDispute,
    ZRecipientPromisePayment,
  ])
  .meta({ title: "RecipientActionInput" });
export type TRecipientAction = z.infer<typeof ZRecipientAction>;

// ---------------------------------------------------------------- invoice detail

export const ZRecipientInvoice = ZInvoiceRecord.extend({
  request_id: ZUuid.meta({ description: "The hosted payment request this session belongs to" }),
  payment_reference: ZPaymentReference,
  payment_instructions: ZPaymentInstructions.nullable().meta({
    description:
      "How to pay: the issuer's payment instructions for the invoice's currency (quote `payment_reference` with the transfer), or null when the issuer has none for it",
  }),
  documents: z.array(ZDocumentItem).meta({
    description:
      "Documents the recipient may see: its own uploads and the issuer's invoice, supporting and payment-evidence documents (issuer bank observations are issuer-only)",
  }),
  messages: z.array(ZMessageItem).meta({
    description:
      "The message thread between issuer and recipient: its most recent 100 messages, oldest first (earlier ones: GET /recipient/messages or /recipient/contexts/{request}/messages)",
  }),
  messages_total: z.number().int().min(0).meta({ description: "How many messages the thread holds in all" }),
  dispute: ZDisputeView.nullable(),
  promise: ZPromiseView.nullable(),
}).meta({ title: "RecipientInvoiceDetail" });
export type TRecipientInvoice = z.infer<typeof ZRecipientInvoice>;

// ---------------------------------------------------------------- params

export const ZRecipientContextParams = z.strictObject({ request: ZUuid });
export const ZRecipientDocumentParams = z.strictObject({ document: ZUuid });
export const ZRecipientContextDocumentParams = z.strictObject({ request: ZUuid, document: ZUuid });
