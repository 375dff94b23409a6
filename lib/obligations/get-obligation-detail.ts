import { type Selectable, sql as raw } from "kysely";
import type { JsonOf } from "@/lib/db/camel";
import type { Tx } from "@/lib/db/client";
import { jsonAgg, jsonRow } from "@/lib/db/json";
import { statement } from "@/lib/db/query";
import type { ObligationCredit, Reminder } from "@/lib/generated/kysely/database";
import { auditItems, documentItems, eventsNewestFirst, messageItems, type PartsOf, recentJson, sharedParts } from "@/lib/obligations/detail-parts";
import { loadObligation, type LoadedObligation } from "@/lib/obligations/load";
import { CREDIT_COLUMNS, toCredit, toDisputeView, toInvoiceRecord, toObligationProjection, toPromiseView } from "@/lib/obligations/view";
import { paymentRequestView } from "@/lib/payment-requests/view";
import { present } from "@/lib/present";

// The parts every detail view adds to the record: what is left to allocate
// (outstanding_minor), the audit trail (the most recent DETAIL_RECENT_LIMIT, oldest first),
// the documents, the messages (likewise), the credits, the reminders and the payment request
// view, whose `hosted_url` is "" unless `revealLink` (the reader may change obligations). One
// statement: each list is a json_agg over its (organization_id, obligation_id) index.
const parts = statement((q, p: PartsOf) =>
  q.selectNoFrom([
    recentJson(eventsNewestFirst(q, p)).as("events"),
    q
      .selectFrom("events as t")
      .select(raw<number>`count(*)::int`.as("n"))
      .where("t.organization_id", "=", p.org)
      .where("t.obligation_id", "=", p.id)
      .$asScalar()
      .as("events_total"),
    ...sharedParts(q, p),
    q
      .selectFrom("obligation_credits as c")
      .select((eb) =>
        jsonAgg(jsonRow<ObligationCredit, CreditColumn>("c", CREDIT_COLUMNS, ["amount_minor"]), eb.ref("c.created_at"), eb.ref("c.id")).as("credits"),
      )
      .where("c.organization_id", "=", p.org)
      .where("c.obligation_id", "=", p.id)
      .$asScalar()
      .as("credits"),
    // the reminders sent, due or failed (docs/reminders.md; the skipped ones are not listed), by step
    q
      .selectFrom("reminders as r")
      .select((eb) => jsonAgg(jsonRow<Reminder, ReminderColumn>("r", REMINDER_COLUMNS), eb.ref("r.step")).as("reminders"))
      .where("r.organization_id", "=", p.org)
      .where("r.obligation_id", "=", p.id)
      .where("r.status", "<>", raw.lit("skipped"))
      .$asScalar()
      .as("reminders"),
  ]),
);

type CreditColumn = (typeof CREDIT_COLUMNS)[number];
const REMINDER_COLUMNS = [
  "step",
  "tone",
  "channel",
  "status",
  "scheduled_on",
  "language",
  "sent_at",
  "last_error",
] as const satisfies readonly (keyof Reminder)[];
type ReminderColumn = (typeof REMINDER_COLUMNS)[number];

async function detailParts(tx: Tx, o: LoadedObligation, revealLink: boolean) {
  const [{ events, events_total, documents, messages, messages_total, credits, reminders }] = await parts.rows(tx, { org: o.organizationId, id: o.id });
  return {
    credits: credits.map(creditItem),
    settled: { by_payments_minor: (o.allocatedMinor - o.creditedMinor).toString(), by_credits_minor: o.creditedMinor.toString() },
    outstanding_minor: (o.amountMinor - o.allocatedMinor).toString(),
    payment_reference: o.paymentReference,
    audit_trail: auditItems(events),
    audit_trail_total: Number(events_total),
    documents: documentItems(documents),
    messages: messageItems(messages),
    messages_total: Number(messages_total),
    payment_request: paymentRequestView(present(o.paymentRequest, "payment request"), revealLink),
    dispute: toDisputeView(o),
    promise: toPromiseView(o),
    reminders: reminders.map(reminderItem),
  };
}

type CreditJson = JsonOf<Pick<Selectable<ObligationCredit>, CreditColumn>>;
type ReminderJson = JsonOf<Pick<Selectable<Reminder>, ReminderColumn>>;

const reminderItem = (r: ReminderJson) => ({
  offset_days: Number(r.step),
  tone: r.tone as "friendly" | "firm" | "final",
  channel: r.channel as "webhook" | "email",
  status: r.status as "sent" | "due" | "failed",
  scheduled_on: String(r.scheduled_on).slice(0, 10),
  language: String(r.language),
  sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
  last_error: String(r.last_error ?? ""),
});

const creditItem = (c: CreditJson) =>
  toCredit({
    id: c.id,
    obligationId: c.obligation_id,
    kind: c.kind,
    amountMinor: BigInt(c.amount_minor),
    reason: c.reason,
    reference: c.reference,
    documentId: c.document_id,
    createdAt: new Date(c.created_at),
    reversedAt: c.reversed_at ? new Date(c.reversed_at) : null,
    reversalReason: c.reversal_reason,
  });

// GET /obligations/{id}: the obligation projection plus the detail parts. `revealLink`:
// whether the reader may see the hosted URL (lib/auth/principal.ts, mayRevealLink).
export type GetObligationDetailInput = { organizationId: string; obligationId: string; revealLink: boolean };

export async function getObligationDetail(tx: Tx, input: GetObligationDetailInput) {
  const { organizationId, obligationId } = input;
  const o = await loadObligation(tx, { organizationId, obligationId });
  return { ...toObligationProjection(o), ...(await detailParts(tx, o, input.revealLink)) };
}

// GET /invoices/{id}: the invoice record plus the detail parts (obligations of type invoice only).
export async function getInvoiceDetail(tx: Tx, input: GetObligationDetailInput) {
  const { organizationId, obligationId } = input;
  const o = await loadObligation(tx, { organizationId, obligationId, obligationType: "invoice" });
  return { ...toInvoiceRecord(o, o.organizationName), ...(await detailParts(tx, o, input.revealLink)) };
}
