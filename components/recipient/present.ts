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
  lead: Lead; // what the page leads with (docs/obligations.md, Lifecycle)
  toTransfer: string; // what a transfer (and the QR code) should carry: the lead's amount, else everything outstanding
};

// What to transfer now: what is due today when above zero; otherwise the outstanding
// payable amount with the date it is due — the released parts (in sequence order, after what
// is settled) due by the first date still open, or for an obligation without terms everything
// by its deadline; otherwise nothing is payable yet (terms waiting for their date or condition).
export type Lead = { kind: "due_now"; amount: string } | { kind: "payable_by"; amount: string; date: string } | { kind: "not_payable_yet" };

export function amounts(inv: TRecipientInvoice): Amounts {
  const total = big(inv.amount_minor);
  const received = big(inv.allocated_minor);
  const toPayNow = max0(big(inv.due_minor) - received);
  const outstanding = max0(total - received);
  const payableOpen = max0(big(inv.payable_minor) - received);
  let lead: Lead = { kind: "not_payable_yet" };
  if (toPayNow > 0n) lead = { kind: "due_now", amount: toPayNow.toString() };
  else if (payableOpen > 0n) lead = nextPayable(inv, payableOpen);
  return {
    total: total.toString(),
    received: received.toString(),
    outstanding: outstanding.toString(),
    payableNow: inv.payable_minor,
    dueNow: inv.due_minor,
    toPayNow: toPayNow.toString(),
    lead,
    toTransfer: lead.kind === "not_payable_yet" ? outstanding.toString() : lead.amount,
  };
}

// The released terms' open rest due by the earliest open due date (`payable_on`), never more
// than what is payable and open; the deadline for an obligation without terms.
function nextPayable(inv: TRecipientInvoice, payableOpen: bigint, today = todayUtc()): Lead {
  const open = termsOpen(inv).filter((t) => t.open > 0n && t.term.payable_on && t.term.triggered_on && t.term.triggered_on <= today);
  if (open.length === 0) return { kind: "payable_by", amount: payableOpen.toString(), date: inv.due_date };
  const date = open.map((t) => t.term.payable_on as string).sort()[0];
  const sum = open.filter((t) => (t.term.payable_on as string) <= date).reduce((a, t) => a + t.open, 0n);
  return { kind: "payable_by", amount: (sum < payableOpen ? sum : payableOpen).toString(), date };
}

type Term = TRecipientInvoice["payment_terms"][number];

// Each term with what the settled amount leaves open of it, in sequence order.
function termsOpen(inv: TRecipientInvoice): { term: Term; open: bigint }[] {
  let left = big(inv.allocated_minor);
  return [...inv.payment_terms]
    .sort((a, b) => a.sequence - b.sequence)
    .map((term) => {
      const amount = big(term.amount_minor ?? "0");
      // biome-ignore lint/complexity/useMathMinMax: bigint (Math.min takes numbers only)
      const covered = left < amount ? left : amount;
      left -= covered;
      return { term, open: amount - covered };
    });
}

export type TermPaid = "paid" | "partly" | "open";

// Terms are paid in `sequence` order as far as the settled amount (payments and credits:
// allocated_minor) covers them.
export function termsPaid(inv: TRecipientInvoice): Map<string, TermPaid> {
  const out = new Map<string, TermPaid>();
  for (const { term, open } of termsOpen(inv)) out.set(term.id, open === 0n ? "paid" : open < big(term.amount_minor ?? "0") ? "partly" : "open");
  return out;
}

export const issuerOf = (inv: TRecipientInvoice, t: T, capital = false) => inv.issuer_name || t(capital ? "who.Sender" : "who.sender");

export type StatusWords = { label: string; tone: Tone; detail: string };

// An open dispute is said before anything but full payment: the payer is not chased meanwhile.
export function statusWords(inv: TRecipientInvoice, t: T, today = todayUtc()): StatusWords {
  const issuer = issuerOf(inv, t, true);
  const w = (k: "paid" | "partly" | "claimed" | "disputed" | "overdue" | "awaiting", tone: Tone): StatusWords => ({
    label: t(`status.${k}.label`),
    tone,
    detail: t(`status.${k}.detail`, { issuer }),
  });
  if (inv.status === "RECONCILED") return w("paid", "success");
  if (inv.dispute?.status === "open") return w("disputed", "info");
  switch (inv.status) {
    case "PARTIALLY_RECONCILED":
      return w("partly", "info");
    case "PAYMENT_CLAIMED":
      return w("claimed", "info");
    default:
      return inv.due_date && inv.due_date < today ? w("overdue", "danger") : w("awaiting", "warning");
  }
}

export type TermState = { text: string; tone: Tone };

// How a payment term is described: when it becomes payable and its state today (paid as
// far as the settled amount covers the terms in sequence order, else due, upcoming or waiting).
export function termState(
  term: TRecipientInvoice["payment_terms"][number],
  inv: TRecipientInvoice,
  t: T,
  today = todayUtc(),
): { when: string; state: TermState } {
  const paid = termsPaid(inv).get(term.id);
  const condition = term.condition_id ? inv.conditions.find((c) => c.id === term.condition_id) : undefined;
  if (paid === "paid") return { when: term.payable_on ?? "", state: { text: t("terms.paid"), tone: "success" } };
  if (term.payable_on) {
    const due = term.payable_on <= today;
    if (paid === "partly") return { when: term.payable_on, state: { text: t("terms.partlyPaid"), tone: due ? "warning" : "info" } };
    return { when: term.payable_on, state: due ? { text: t("terms.dueNow"), tone: "warning" } : { text: t("terms.upcoming"), tone: "neutral" } };
  }
  if (paid === "partly") return { when: "", state: { text: t("terms.partlyPaid"), tone: "info" } };
  if (condition) return { when: "", state: { text: t("terms.waitingCondition"), tone: "neutral" } };
  return { when: "", state: { text: t("terms.notYetDue"), tone: "neutral" } };
}

export const CONDITION_TONES: Record<string, Tone> = { waiting: "neutral", satisfied: "success", waived: "success" };

// A file size in the payer's language: "2.3 KB", "2,3 KB", "2,3 Ko".
export function fileSize(bytes: number, locale: readonly string[], t: T): string {
  const n = (v: number) => new Intl.NumberFormat([...locale], { maximumFractionDigits: 1 }).format(v);
  if (bytes < 1024) return t("size.bytes", { n: n(bytes) });
  if (bytes < 1024 * 1024) return t("size.kb", { n: n(Math.round(bytes / 102.4) / 10) });
  return t("size.mb", { n: n(Math.round(bytes / (1024 * 104.8576)) / 10) });
}

// The decimal separator of the payer's language ("." or ","), for examples and prefilled
// amounts that the amount field reads back (it takes either).
export function decimalSeparator(locale: readonly string[]): string {
  return new Intl.NumberFormat([...locale]).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
}
