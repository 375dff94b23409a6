import { formatMinor } from "@/lib/money/format";

// Labels and formatting shared by the dashboard's pages (server) and islands (browser).

export const STATUS_LABELS: Record<string, string> = {
  OBLIGATION_CAPTURED: "Captured",
  PAYMENT_REQUESTED: "Payment requested",
  PAYMENT_CLAIMED: "Payment claimed",
  PARTIALLY_RECONCILED: "Partially reconciled",
  RECONCILED: "Reconciled",
};

export const STATUS_HELP: Record<string, string> = {
  OBLIGATION_CAPTURED: "Registered; the link has not been sent yet",
  PAYMENT_REQUESTED: "The link was sent or opened",
  PAYMENT_CLAIMED: "The counterparty reported a payment (not settled)",
  PARTIALLY_RECONCILED: "Part of the amount is allocated from payments",
  RECONCILED: "Fully allocated",
};

export const TYPE_LABELS: Record<string, string> = {
  invoice: "Invoice",
  payment_condition: "Payment condition",
  contractual: "Contract",
};

export const DOCUMENT_KIND_LABELS: Record<string, string> = {
  invoice: "Invoice",
  supporting: "Supporting document",
  payment_evidence: "Payment evidence",
  bank_observation: "Bank observation",
};

export const EVENT_LABELS: Record<string, string> = {
  "obligation.registered": "Registered",
  "obligation.payment_requested": "Marked as sent",
  "obligation.link_opened": "Link opened",
  "obligation.link_revoked": "Link revoked",
  "obligation.link_reissued": "Link reissued",
  "obligation.acknowledged": "Acknowledged",
  "obligation.dates_shared": "Payment date shared",
  "obligation.payment_reported": "Payment reported",
  "obligation.message_posted": "Message posted",
  "obligation.document_added": "Document added",
  "obligation.condition_satisfied": "Condition satisfied",
  "obligation.condition_waived": "Condition waived",
  "obligation.context_linked": "Context linked",
  "obligation.expected_payment_date_set": "Expected payment date set",
  "obligation.disputed": "Disputed by the payer",
  "obligation.dispute_resolved": "Dispute resolved",
  "obligation.payment_promised": "Payment promised",
  "payment.recorded": "Payment recorded",
  "payment.allocated": "Payment allocated",
  "bank_statement.imported": "Bank statement imported",
  "payment.suggestion_rejected": "Match suggestion rejected",
  "reconciliation_settings.updated": "Reconciliation settings changed",
  "obligation.term_payable": "Payment term payable",
  "obligation.due": "Payment term due",
  "obligation.overdue": "Overdue",
  "payment_request.expiring": "Link expiring soon",
  "basket.created": "Basket made for one transfer",
  "webhook.test": "Webhook test event",
  "webhook_endpoint.disabled": "Webhook endpoint disabled",
  "obligation.amended": "Corrected",
  "obligation.credited": "Credited",
  "obligation.credit_reversed": "Credit reversed",
  "payment.allocation_reversed": "Allocation reversed",
  "payment.dismissed": "Payment dismissed",
  "payment.restored": "Payment restored",
  "promise.kept": "Promise kept",
  "promise.broken": "Promise broken",
  "reminder_policy.updated": "Reminder policy changed",
  "obligation.reminder_due": "Reminder due",
  "obligation.reminder_sent": "Reminder sent",
  "obligation.reminder_failed": "Reminder failed",
};

export const DISMISSAL_LABELS: Record<string, string> = {
  bank_fee: "Bank charges",
  internal_transfer: "Internal transfer",
  refund: "Refund",
  not_receivable: "Not a receivable",
  other: "Other",
};

export const CREDIT_LABELS: Record<string, string> = {
  credit_note: "Credit note",
  cancellation: "Cancellation",
  write_off: "Write-off",
  discount: "Discount",
  bank_fee: "Bank fee",
};

// Settled wholly by a live cancellation: shown as "Cancelled" instead of its status.
export const isCancelled = (o: { amount_minor: string; credits: { kind: string; amount_minor: string; reversed_at: string | null }[] }) =>
  o.credits.filter((c) => c.kind === "cancellation" && !c.reversed_at).reduce((s, c) => s + BigInt(c.amount_minor), 0n) === BigInt(o.amount_minor);

export const eventLabel = (type: string) => EVENT_LABELS[type] ?? type;
export const statusLabel = (s: string) => STATUS_LABELS[s] ?? s;

export const TRIGGER_LABELS: Record<string, string> = {
  immediately: "On registration",
  specific_date: "On a date",
  condition_satisfied: "When a condition is met",
};
export const DUE_RULE_LABELS: Record<string, string> = {
  immediately: "Immediately",
  specific_date: "On a date",
  days_after_trigger: "Days after trigger",
};

export function money(minor: string, currency: string, locale: string): string {
  return formatMinor(minor, currency, { locale });
}

// "2026-12-31" -> "31 Dec 2026" (en-GB) / "Dec 31, 2026" (en-US); "" -> "".
const formatters = new Map<string, Intl.DateTimeFormat>();
function dtf(locale: string, kind: "day" | "time"): Intl.DateTimeFormat {
  const key = `${kind}|${locale}`;
  let f = formatters.get(key);
  if (!f) {
    f =
      kind === "day"
        ? new Intl.DateTimeFormat(locale, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" })
        : new Intl.DateTimeFormat(locale, {
            year: "numeric",
            month: "short",
            day: "numeric",
            hour: "2-digit",
            minute: "2-digit",
            timeZone: "UTC",
            timeZoneName: "short",
          });
    formatters.set(key, f);
  }
  return f;
}

export function formatDay(ymd: string, locale: string): string {
  if (!ymd) return "";
  return dtf(locale, "day").format(new Date(`${ymd}T00:00:00Z`));
}

// An RFC 3339 timestamp in UTC, e.g. "22 Nov 2026, 10:00 UTC".
export function formatTimestamp(iso: string, locale: string): string {
  if (!iso) return "";
  return dtf(locale, "time").format(new Date(iso));
}

// Whole days from `fromYmd` to `toYmd` (both calendar dates).
export function daysBetween(fromYmd: string, toYmd: string): number {
  return Math.round((Date.parse(`${toYmd}T00:00:00Z`) - Date.parse(`${fromYmd}T00:00:00Z`)) / 86_400_000);
}
