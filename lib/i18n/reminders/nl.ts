import type { ReminderMessages } from "./en";

export const nl: ReminderMessages = {
  subject: {
    before: "Herinnering: {amount} te betalen op {date} ({invoice})",
    friendly: "Herinnering: {amount} moest op {date} betaald zijn ({invoice})",
    firm: "Achterstallig: {amount} moest op {date} betaald zijn ({invoice})",
    final: "Laatste herinnering: {amount} moest op {date} betaald zijn ({invoice})",
  },
  greeting: "Beste {name},",
  lead_before: "Wij herinneren u eraan dat {amount} voor {invoice} van {issuer} op {date} betaald moet zijn.",
  lead_today: "{amount} voor {invoice} van {issuer} moet vandaag, {date}, betaald zijn.",
  lead_overdue: "{amount} voor {invoice} van {issuer} moest op {date} betaald zijn en is nu {days} dagen te laat.",
  lead_overdue_one: "{amount} voor {invoice} van {issuer} moest op {date} betaald zijn en is nu één dag te laat.",
  tone: {
    friendly: "Hebt u al betaald, dan danken wij u en kunt u dit bericht negeren.",
    firm: "Betaal het bedrag nu, of laat ons weten wanneer u betaalt.",
    final: "Dit is onze laatste herinnering. Betaal het bedrag zonder verder uitstel.",
  },
  reference: "Betalingskenmerk (vermeld het bij uw overschrijving): {reference}",
  bank_heading: "Bankgegevens",
  account_holder: "Rekeninghouder",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Rekeningnummer",
  routing_number: "Routingnummer",
  sort_code: "Sort code",
  bank_name: "Bank",
  interest: "Ter informatie: wettelijke handelsrente tot {today} tegen {rate}% per jaar over {overdue}: {interest}.",
  compensation: "Ter informatie: vaste vergoeding voor incassokosten: {compensation}.",
  link: "Bekijk de details en betaal online: {url}",
  link_label: "Details bekijken en online betalen",
  closing: "Met vriendelijke groet,",
};
