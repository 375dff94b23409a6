import { z } from "zod";
import { ZCurrency, ZMinorOut, ZTimestamp, ZUuid } from "@/lib/schemas/common";

// The inbox (GET /inbox, POST /inbox/{id}/read): what payers did through the hosted link.
export const INBOX_KIND_VALUES = ["message", "payment_reported", "dispute", "promise", "document"] as const;

export const ZInboxItem = z
  .strictObject({
    id: ZUuid,
    kind: z.enum(INBOX_KIND_VALUES),
    obligation: z
      .strictObject({
        id: ZUuid,
        label: z.string(),
        invoice_number: z.string(),
        debtor_name: z.string(),
        amount_minor: ZMinorOut,
        currency: ZCurrency,
      })
      .meta({ description: "The obligation the payer acted on" }),
    detail: z.record(z.string(), z.unknown()).meta({
      description:
        "What the payer sent: message `{ message }`; payment_reported `{ reported_payment_date, amount_minor?, reference?, note? }`; dispute `{ reason, message, amount_minor? }`; promise `{ date, amount_minor? }`; document `{ document_id, filename, kind }`",
    }),
    event_id: ZUuid.meta({ description: "The event of the payer's action (in the obligation's audit trail)" }),
    created_at: ZTimestamp,
    read_at: ZTimestamp.nullable().meta({ description: "When staff marked it read; null: unread" }),
  })
  .meta({ id: "InboxItem", title: "InboxItem" });
export type TInboxItem = z.infer<typeof ZInboxItem>;

export const ZInboxList = z.strictObject({ items: z.array(ZInboxItem), limit: z.number().int(), offset: z.number().int() }).meta({ title: "InboxList" });

export const ZInboxQuery = z.strictObject({
  kind: z.enum(INBOX_KIND_VALUES).optional().meta({ description: "Only items of this kind" }),
  unread: z.enum(["true", "false"]).optional().meta({ description: "`true`: only unread items; `false`: only read ones" }),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type TInboxQuery = z.infer<typeof ZInboxQuery>;
