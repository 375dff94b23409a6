import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import type { Tone } from "@/components/recipient/ui";
import type { T } from "@/components/recipient/i18n";

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
  toTransfer: string; // what a transfer should carry: due now, else everything outstanding
};

export function amounts(inv: TRecipientInvoice): Amounts {
  const total = big(inv.amount_minor);
  const received = big(inv.allocated_minor);
  const toPayNow = max0(big(inv.due_minor) - received);
  const outstanding = max0(total - received);
  return {
    total: total.toString(),
    received: received.toString(),
    outstanding: outstanding.toString(),
    payableNow: inv.payable_minor,
    dueNow: inv.due_minor,
    toPayNow: toPayNow.toString(),
    toTransfer: (toPayNow > 0n ? toPayNow : outstanding).toString(),
  };
}

export const issuerOf = (inv: TRecipientInvoice, t: T, capital = false) => inv.issuer_name || t(capital ? "who.Sender" : "who.sender");

export type StatusWords = { label: string; tone: Tone; detail: string };

export function statusWords(inv: TRecipientInvoice, t: T, today = todayUtc()): StatusWords {
  const issuer = issuerOf(inv, t, true);
  const w = (k: "paid" | "partly" | "claimed" | "overdue" | "awaiting", tone: Tone): StatusWords => ({
    label: t(`status.${k}.label`),
    tone,
    detail: t(`status.${k}.detail`, { issuer }),
  });
  switch (inv.status) {
    case "RECONCILED":
      return w("paid", "success");
    case "PARTIALLY_RECONCILED":
      return w("partly", "info");
    case "PAYMENT_CLAIMED":
      return w("claimed", "info");
    default:
      return inv.due_date && inv.due_date < today ? w("overdue", "danger") : w("awaiting", "warning");
  }
}

export type TermState = { text: string; tone: Tone };

// How a payment term is described: when it becomes payable and its state today.
export function termState(
  term: TRecipientInvoice["payment_terms"][number],
  inv: TRecipientInvoice,
  t: T,
  today = todayUtc(),
): { when: string; state: TermState } {
  const condition = term.condition_id ? inv.conditions.find((c) => c.id === term.condition_id) : undefined;
  if (term.payable_on) {
    const due = term.payable_on <= today;
    return { when: term.payable_on, state: due ? { text: t("terms.dueNow"), tone: "warning" } : { text: t("terms.upcoming"), tone: "neutral" } };
  }
  if (condition) return { when: "", state: { text: t("terms.waitingCondition"), tone: "neutral" } };
  return { when: "", state: { text: t("terms.notYetDue"), tone: "neutral" } };
}

export const CONDITION_TONES: Record<string, Tone> = { waiting: "neutral", satisfied: "success", waived: "success" };

export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 102.4) / 10} KB`;
  return `${Math.round(bytes / (1024 * 104.8576)) / 10} MB`;
}
