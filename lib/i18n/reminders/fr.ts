import type { ReminderMessages } from "./en";

export const fr: ReminderMessages = {
  subject: {
    before: "Rappel : {amount} à payer le {date} ({invoice})",
    friendly: "Rappel : {amount} était dû le {date} ({invoice})",
    firm: "En retard : {amount} était dû le {date} ({invoice})",
    final: "Dernier rappel : {amount} était dû le {date} ({invoice})",
  },
  greeting: "Bonjour {name},",
  lead_before: "Nous vous rappelons que {amount} pour {invoice} de {issuer} est à payer le {date}.",
  lead_today: "{amount} pour {invoice} de {issuer} est à payer aujourd'hui, le {date}.",
  lead_overdue: "{amount} pour {invoice} de {issuer} était dû le {date} et est en retard de {days} jours.",
  lead_overdue_one: "{amount} pour {invoice} de {issuer} était dû le {date} et est en retard d'un jour.",
  tone: {
    friendly: "Si vous avez déjà payé, merci, et ne tenez pas compte de ce message.",
    firm: "Merci de régler ce montant maintenant, ou de nous dire quand vous le ferez.",
    final: "Ceci est notre dernier rappel. Merci de régler ce montant sans autre délai.",
  },
  reference: "Référence de paiement (à indiquer avec votre virement) : {reference}",
  bank_heading: "Coordonnées bancaires",
  account_holder: "Titulaire du compte",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Numéro de compte",
  routing_number: "Numéro de routage",
  sort_code: "Sort code",
  bank_name: "Banque",
  interest: "Pour information : intérêts de retard au {today} au taux de {rate} % par an sur {overdue} : {interest}.",
  compensation: "Pour information : indemnité forfaitaire pour frais de recouvrement : {compensation}.",
  link: "Voir le détail et payer en ligne : {url}",
  link_label: "Voir le détail et payer en ligne",
  closing: "Cordialement,",
};
