import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import type { Tone } from "@/components/recipient/ui";

// Plain-language presentation of an invoice record for the payer. All amounts stay strings
// of minor units / BigInt; nothing here uses floating point.

export const todayUtc = (): string => new Date().toISOString().slice(0, 10);

const big = (s: string) => BigInt(s || "0");
const max0 = (n: bigint) => (n > 0n ? n : 0n);

export type Amounts = {
  total: string;
  received: string;
  outstanding: string; // total - received
  payableNow: string; // released under the payment terms
  dueNow: string; // released and due by today
  toPayNow: string; // due by today minus what was received
};

export function amounts(inv: TRecipientInvoice): Amounts {
  const total = big(inv.amount_minor);
  const received = big(inv.allocated_minor);
  return {
    total: total.toString(),
    received: received.toString(),
    outstanding: max0(total - received).toString(),
    payableNow: inv.payable_minor,
    dueNow: inv.due_minor,
    toPayNow: max0(big(inv.due_minor) - received).toString(),
  };
}

export type StatusWords = { label: string; tone: Tone; detail: string };

export function statusWords(inv: TRecipientInvoice, today = todayUtc()): StatusWords {
  const issuer = inv.issuer_name || "The sender";
  switch (inv.status) {
    case "RECONCILED":
      return { label: "Paid in full", tone: "success", detail: `${issuer} has received the full amount. Nothing more is owed.` };
    case "PARTIALLY_RECONCILED":
      return { label: "Partly paid", tone: "info", detail: `${issuer} has received part of the amount. The rest is still open.` };
    case "PAYMENT_CLAIMED":
      return { label: "Payment reported", tone: "info", detail: `You reported a payment. ${issuer} will confirm it once the money has arrived.` };
    default:
      if (inv.due_date && inv.due_date < today) return { label: "Overdue", tone: "danger", detail: `The payment deadline has passed. Please pay or tell ${issuer} when you will.` };
      return { label: "Awaiting payment", tone: "warning", detail: `${issuer} is waiting for your payment.` };
  }
}

export type TermState = { text: string; tone: Tone };

export function termState(term: TRecipientInvoice["payment_terms"][number], inv: TRecipientInvoice, today = todayUtc()): { when: string; state: TermState; dateKey?: string } {
  const condition = term.condition_id ? inv.conditions.find((c) => c.id === term.condition_id) : undefined;
  if (term.payable_on) {
    const due = term.payable_on <= today;
    return { when: term.payable_on, dateKey: term.payable_on, state: due ? { text: "Due now", tone: "warning" } : { text: "Upcoming", tone: "neutral" } };
  }
  if (condition) return { when: `after “${condition.label}”`, state: { text: "Waiting for a condition", tone: "neutral" } };
  return { when: "date to be set", state: { text: "Not yet due", tone: "neutral" } };
}

export const CONDITION_WORDS: Record<string, { text: string; tone: Tone }> = {
  waiting: { text: "Waiting", tone: "neutral" },
  satisfied: { text: "Met", tone: "success" },
  waived: { text: "Waived", tone: "success" },
};

export const DOCUMENT_KIND_WORDS: Record<string, string> = {
  invoice: "Invoice",
  supporting: "Supporting document",
  payment_evidence: "Proof of payment",
  bank_observation: "Bank record",
};

export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 102.4) / 10} KB`;
  return `${Math.round(bytes / (1024 * 104.8576)) / 10} MB`;
}
