import type { ReminderMessages } from "./en";

export const it: ReminderMessages = {
  subject: {
    before: "Promemoria: {amount} in scadenza il {date} ({invoice})",
    friendly: "Promemoria: {amount} era dovuto il {date} ({invoice})",
    firm: "Scaduto: {amount} era dovuto il {date} ({invoice})",
    final: "Ultimo sollecito: {amount} era dovuto il {date} ({invoice})",
  },
  greeting: "Gentile {name},",
  lead_before: "le ricordiamo che {amount} per {invoice} di {issuer} scade il {date}.",
  lead_today: "{amount} per {invoice} di {issuer} scade oggi, {date}.",
  lead_overdue: "{amount} per {invoice} di {issuer} era dovuto il {date} ed è scaduto da {days} giorni.",
  lead_overdue_one: "{amount} per {invoice} di {issuer} era dovuto il {date} ed è scaduto da un giorno.",
  tone: {
    friendly: "Se ha già pagato, grazie, e non tenga conto di questo messaggio.",
    firm: "La preghiamo di pagare ora l'importo o di dirci quando lo farà.",
    final: "Questo è il nostro ultimo sollecito. La preghiamo di pagare l'importo senza ulteriore ritardo.",
  },
  reference: "Riferimento di pagamento (da indicare nel bonifico): {reference}",
  bank_heading: "Coordinate bancarie",
  account_holder: "Intestatario del conto",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Numero di conto",
  routing_number: "Routing number",
  sort_code: "Sort code",
  bank_name: "Banca",
  interest: "Per informazione: interessi di mora al {today} al tasso del {rate}% annuo su {overdue}: {interest}.",
  compensation: "Per informazione: risarcimento forfettario per i costi di recupero: {compensation}.",
  link: "Veda i dettagli e paghi online: {url}",
  link_label: "Vedere i dettagli e pagare online",
  closing: "Cordiali saluti,",
};
