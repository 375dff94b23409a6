// Reminder texts (lib/reminders/render.ts), English: the reference catalogue. Every other
// language has the same keys (lib/i18n/reminders/catalogues.test.ts). {placeholders} are
// filled by interpolate(); values are escaped for the HTML body.
export const en = {
  subject: {
    before: "Reminder: {amount} due on {date} ({invoice})",
    friendly: "Reminder: {amount} was due on {date} ({invoice})",
    firm: "Overdue: {amount} was due on {date} ({invoice})",
    final: "Final reminder: {amount} was due on {date} ({invoice})",
  },
  greeting: "Hello {name},",
  lead_before: "This is a reminder that {amount} for {invoice} from {issuer} is due on {date}.",
  lead_today: "{amount} for {invoice} from {issuer} is due today, {date}.",
  lead_overdue: "{amount} for {invoice} from {issuer} was due on {date} and is now {days} days overdue.",
  lead_overdue_one: "{amount} for {invoice} from {issuer} was due on {date} and is now one day overdue.",
  tone: {
    friendly: "If you have already paid, thank you, and please ignore this message.",
    firm: "Please pay the amount now, or tell us when you will.",
    final: "This is our final reminder. Please pay the amount without further delay.",
  },
  reference: "Payment reference (please quote it with your transfer): {reference}",
  bank_heading: "Bank details",
  account_holder: "Account holder",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Account number",
  routing_number: "Routing number",
  sort_code: "Sort code",
  bank_name: "Bank",
  interest: "For information: late-payment interest accrued to {today} at {rate}% a year on {overdue}: {interest}.",
  compensation: "For information: fixed compensation for recovery costs: {compensation}.",
  link: "See the details and pay online: {url}",
  link_label: "See the details and pay online",
  closing: "Kind regards,",
};
export type ReminderMessages = typeof en;
