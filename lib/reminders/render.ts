import { interpolate } from "@/lib/i18n/recipient/interpolate";
import type { RecipientLanguage } from "@/lib/i18n/recipient";
import { REMINDER_CATALOGUES, REMINDER_LOCALES } from "@/lib/i18n/reminders";
import { basisPointsToPercent, formatMinor } from "@/lib/money/format";
import { formatDate } from "@/lib/format/dates";
import { groupsOfFour } from "@/lib/payment-instructions/bank-details";
import type { ReminderTone } from "@/lib/schemas/reminders";
import type { PaymentInstructionRow } from "@/lib/payment-instructions/view";

// A reminder's texts (docs/reminders.md): subject, plain text and HTML in the payer's
// language and the step's tone, naming what is due and when, the payment reference, the
// bank details and, with late-payment interest, the interest accrued and the fixed
// compensation (information only). The HTML keeps to what mail clients render: a table
// layout, inline styles only, no script, no external resources; every value is escaped.
export type ReminderFacts = {
  language: RecipientLanguage;
  tone: ReminderTone;
  today: string;
  dueDate: string;
  debtorName: string;
  issuerName: string;
  senderName: string; // the signature: the policy's sender name, else the issuer
  invoice: string; // the invoice number, else the obligation's reference
  currency: string;
  outstandingMinor: bigint;
  paymentReference: string;
  bank: Omit<PaymentInstructionRow, "currency" | "note" | "updatedAt"> | null; // the invoice currency's bank details
  interest: { rateBasisPoints: number; overdueMinor: bigint; interestMinor: bigint; compensationMinor: bigint | null } | null;
  hostedUrl: string | null; // email only: the webhook consumer adds its own
};

export type RenderedReminder = { subject: string; text: string; html: string };

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const P = "margin:0 0 12px 0;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2937;";
const TD = "padding:2px 12px 2px 0;font-family:Arial,Helvetica,sans-serif;font-size:14px;color:#1f2937;";

export function renderReminder(f: ReminderFacts): RenderedReminder {
  const m = REMINDER_CATALOGUES[f.language];
  const locale = REMINDER_LOCALES[f.language];
  const money = (minor: bigint) => formatMinor(minor, f.currency, { locale });
  const days = Math.round((Date.parse(`${f.today}T00:00:00Z`) - Date.parse(`${f.dueDate}T00:00:00Z`)) / 86_400_000);
  const vars = {
    amount: money(f.outstandingMinor),
    date: formatDate(f.dueDate, locale),
    invoice: f.invoice,
    issuer: f.issuerName,
    name: f.debtorName,
    days,
    reference: groupsOfFour(f.paymentReference),
  };
  const lead = days < 0 ? m.lead_before : days === 0 ? m.lead_today : days === 1 ? m.lead_overdue_one : m.lead_overdue;
  const paragraphs = [interpolate(lead, vars), m.tone[f.tone]];
  if (f.paymentReference) paragraphs.push(interpolate(m.reference, vars));
  const info: string[] = [];
  if (f.interest) {
    if (f.interest.interestMinor > 0n)
      info.push(
        interpolate(m.interest, {
          today: formatDate(f.today, locale),
          rate: basisPointsToPercent(f.interest.rateBasisPoints).replace(".", decimalSeparator(locale)),
          overdue: money(f.interest.overdueMinor),
          interest: money(f.interest.interestMinor),
        }),
      );
    if (f.interest.compensationMinor !== null && f.interest.compensationMinor > 0n && days > 0)
      info.push(interpolate(m.compensation, { compensation: money(f.interest.compensationMinor) }));
  }
  const bankRows: [string, string][] = [];
  if (f.bank) {
    const b = f.bank;
    bankRows.push([m.account_holder, b.accountHolder]);
    if (b.iban) bankRows.push([m.iban, groupsOfFour(b.iban)]);
    if (b.bic) bankRows.push([m.bic, b.bic]);
    if (b.accountNumber) bankRows.push([m.account_number, b.accountNumber]);
    if (b.routingNumber) bankRows.push([m.routing_number, b.routingNumber]);
    if (b.sortCode) bankRows.push([m.sort_code, b.sortCode]);
    if (b.bankName) bankRows.push([m.bank_name, b.bankName]);
  }
  const greeting = interpolate(m.greeting, vars);
  // Before or on the due date one subject ("due on"); after it, the step's tone.
  const subject = interpolate(days <= 0 ? m.subject.before : m.subject[f.tone], vars);

  const text = [
    greeting,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
    ...(bankRows.length ? [`${m.bank_heading}:`, ...bankRows.map(([k, v]) => `  ${k}: ${v}`), ""] : []),
    ...info.flatMap((p) => [p, ""]),
    ...(f.hostedUrl ? [interpolate(m.link, { url: f.hostedUrl }), ""] : []),
    m.closing,
    f.senderName,
  ].join("\n");

  const e = escapeHtml;
  const html = [
    `<!DOCTYPE html><html lang="${f.language}"><head><meta charset="utf-8"><title>${e(subject)}</title></head>`,
    '<body style="margin:0;padding:0;background:#f3f4f6;">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;"><tr><td style="padding:24px 12px;">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;margin:0 auto;background:#ffffff;border:1px solid #e5e7eb;"><tr><td style="padding:24px;">',
    `<p style="${P}">${e(greeting)}</p>`,
    ...paragraphs.map((p) => `<p style="${P}">${e(p)}</p>`),
    ...(bankRows.length
      ? [
          `<p style="${P}font-weight:bold;margin-bottom:4px;">${e(m.bank_heading)}</p>`,
          `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 12px 0;">${bankRows
            .map(([k, v]) => `<tr><td style="${TD}">${e(k)}</td><td style="${TD}font-family:Consolas,Menlo,monospace;">${e(v)}</td></tr>`)
            .join("")}</table>`,
        ]
      : []),
    ...info.map((p) => `<p style="${P}font-size:13px;color:#4b5563;">${e(p)}</p>`),
    ...(f.hostedUrl
      ? [
          `<p style="${P}"><a href="${e(f.hostedUrl)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#ffffff;text-decoration:none;border-radius:4px;">${e(m.link_label)}</a></p>`,
        ]
      : []),
    `<p style="${P}">${e(m.closing)}<br>${e(f.senderName)}</p>`,
    "</td></tr></table></td></tr></table></body></html>",
  ].join("\n");
  return { subject, text, html };
}

// The locale's decimal separator ("," in de-DE), for the interest rate shown.
const decimalSeparator = (locale: string): string => new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
