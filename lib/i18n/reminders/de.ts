import type { ReminderMessages } from "./en";

export const de: ReminderMessages = {
  subject: {
    before: "Erinnerung: {amount} fällig am {date} ({invoice})",
    friendly: "Erinnerung: {amount} war am {date} fällig ({invoice})",
    firm: "Überfällig: {amount} war am {date} fällig ({invoice})",
    final: "Letzte Mahnung: {amount} war am {date} fällig ({invoice})",
  },
  greeting: "Guten Tag {name},",
  lead_before: "wir erinnern Sie daran, dass {amount} für {invoice} von {issuer} am {date} fällig ist.",
  lead_today: "{amount} für {invoice} von {issuer} ist heute, am {date}, fällig.",
  lead_overdue: "{amount} für {invoice} von {issuer} war am {date} fällig und ist seit {days} Tagen überfällig.",
  lead_overdue_one: "{amount} für {invoice} von {issuer} war am {date} fällig und ist seit einem Tag überfällig.",
  tone: {
    friendly: "Falls Sie bereits bezahlt haben, vielen Dank; betrachten Sie diese Nachricht dann als gegenstandslos.",
    firm: "Bitte begleichen Sie den Betrag jetzt oder teilen Sie uns mit, wann Sie zahlen.",
    final: "Dies ist unsere letzte Mahnung. Bitte zahlen Sie den Betrag ohne weitere Verzögerung.",
  },
  reference: "Zahlungsreferenz (bitte bei der Überweisung angeben): {reference}",
  bank_heading: "Bankverbindung",
  account_holder: "Kontoinhaber",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Kontonummer",
  routing_number: "Routing-Nummer",
  sort_code: "Sort Code",
  bank_name: "Bank",
  interest: "Zur Information: Verzugszinsen bis {today} zu {rate} % jährlich auf {overdue}: {interest}.",
  compensation: "Zur Information: Pauschale für Beitreibungskosten: {compensation}.",
  link: "Details ansehen und online bezahlen: {url}",
  link_label: "Details ansehen und online bezahlen",
  closing: "Mit freundlichen Grüßen",
};
