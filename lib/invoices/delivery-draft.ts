import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { loadObligation } from "@/lib/obligations/load";
import { toInvoiceRecord } from "@/lib/obligations/view";
import { hostedUrl } from "@/lib/payment-requests/tokens";
import { assertUsable } from "@/lib/payment-requests/get-payment-request";
import { formatRf } from "@/lib/payment-references/rf";

// GET /invoices/{id}/delivery: the text of the issuer's own message to the recipient, with
// the hosted URL. Sends nothing and records nothing (no event, no status change).
// A revoked or expired link is 410 (reissue it first) rather than a draft with a dead link.
export type DeliveryDraftInput = { organizationId: string; obligationId: string };

export async function deliveryDraft(tx: Tx, input: DeliveryDraftInput) {
  const { organizationId, obligationId } = input;
  const o = await loadObligation(tx, { organizationId, obligationId, obligationType: "invoice" });
  const pr = o.paymentRequest;
  if (!pr) throw new AppError("not_found", "payment request not found");
  assertUsable(pr);
  const inv = toInvoiceRecord(o, o.organizationName);
  const url = hostedUrl(pr);
  const amount = `${formatMinor(o.amountMinor, inv.currency)} ${inv.currency}`;
  const issuer = oneLine(inv.issuer_name) || "Your supplier";
  const greetingName = oneLine(inv.recipient_name);
  const subject = `Invoice ${oneLine(inv.invoice_number)} from ${issuer}`;
  const rf = formatRf(o.paymentReference);

  // With payment terms, each part's amount and due date (the deadline alone would misstate
  // what is due when: docs/obligations.md, Lifecycle).
  const terms = [...inv.payment_terms].sort((a, b) => a.sequence - b.sequence).map((t) => termLine(t, inv));
  const opening = terms.length
    ? `${issuer} has sent you invoice ${inv.invoice_number} for ${amount}, payable in ${terms.length === 1 ? "one part" : `${terms.length} parts`}:`
    : `${issuer} has sent you invoice ${inv.invoice_number} for ${amount}, due on ${inv.due_date}.`;
  const lines = [
    greetingName ? `Hello ${greetingName},` : "Hello,",
    "",
    opening,
    ...terms.map((t) => `- ${t}`),
    ...(inv.description ? ["", inv.description] : []),
    "",
    `When you pay, please quote this payment reference: ${rf}`,
    "",
    "View the invoice, let us know when you expect to pay, report a payment or send us a message here:",
    url,
    "",
    "This link is personal to you. Please do not forward it.",
    "",
    issuer,
  ];
  const text = lines.join("\n");
  const e = escapeHtml;
  const html = [
    "<!doctype html>",
    '<html><body style="font-family: sans-serif; line-height: 1.5">',
    `<p>${greetingName ? `Hello ${e(greetingName)},` : "Hello,"}</p>`,
    terms.length
      ? `<p>${e(issuer)} has sent you invoice <strong>${e(inv.invoice_number)}</strong> for <strong>${e(amount)}</strong>, payable in ${terms.length === 1 ? "one part" : `${terms.length} parts`}:</p>\n<ul>${terms.map((t) => `<li>${e(t)}</li>`).join("")}</ul>`
      : `<p>${e(issuer)} has sent you invoice <strong>${e(inv.invoice_number)}</strong> for <strong>${e(amount)}</strong>, due on ${e(inv.due_date)}.</p>`,
    ...(inv.description ? [`<p>${e(inv.description).replace(/\r?\n/g, "<br>")}</p>`] : []),
    `<p>When you pay, please quote this payment reference: <strong style="font-family: monospace">${e(rf)}</strong></p>`,
    `<p><a href="${e(url)}">View the invoice and respond</a></p>`,
    `<p style="font-size: 0.9em">Or copy this link into your browser: ${e(url)}<br>This link is personal to you. Please do not forward it.</p>`,
    `<p>${e(issuer)}</p>`,
    "</body></html>",
  ].join("\n");

  return { to: inv.recipient_email ? formatAddress(inv.recipient_name, inv.recipient_email) : "", subject, text, html, hosted_url: url };
}

type InvoiceTerm = ReturnType<typeof toInvoiceRecord>["payment_terms"][number];

// "Deposit: 3,000.00 EUR due on 2026-12-12", or when the date is not known yet, what it waits for.
function termLine(t: InvoiceTerm, inv: ReturnType<typeof toInvoiceRecord>): string {
  const name = oneLine(t.label ?? "") || `Part ${t.sequence}`;
  const amount = `${formatMinor(BigInt(t.amount_minor ?? "0"), inv.currency)} ${inv.currency}`;
  if (t.payable_on) return `${name}: ${amount} due on ${t.payable_on}`;
  const condition = t.condition_id ? inv.conditions.find((c) => c.id === t.condition_id) : undefined;
  const after = t.due_days ? `, due ${t.due_days} days later` : t.due_date ? `, due on ${t.due_date}` : "";
  if (condition) return `${name}: ${amount} payable once “${oneLine(condition.label)}” is done${after}`;
  if (t.trigger_date) return `${name}: ${amount} payable from ${t.trigger_date}${after}`;
  return `${name}: ${amount}, due date to be agreed`;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"'`=]/g, (c) => `&#${c.charCodeAt(0)};`);
}

// No line breaks or other control characters in header-like values.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters (CR, LF...) must not reach a mail header
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();

// RFC 5322 name-addr: the display name as atoms when it is only atext and spaces, else a
// quoted-string with \ and " escaped; no display name -> the bare address.
export function formatAddress(name: string, email: string): string {
  const addr = oneLine(email);
  const display = oneLine(name);
  if (!display) return addr;
  const phrase = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~ ]+$/.test(display) ? display : `"${display.replace(/(["\\])/g, "\\$1")}"`;
  return `${phrase} <${addr}>`;
}

const ZERO_DECIMALS = new Set(["JPY"]);

export function formatMinor(minor: bigint, currency: string): string {
  const decimals = ZERO_DECIMALS.has(currency) ? 0 : 2;
  const s = minor.toString().padStart(decimals + 1, "0");
  // Groups of three from the right, by slicing (the lookahead pattern for this reads the
  // rest of the digits at every position).
  const digits = s.slice(0, s.length - decimals);
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end));
  const whole = groups.join(",");
  return decimals ? `${whole}.${s.slice(s.length - decimals)}` : whole;
}
