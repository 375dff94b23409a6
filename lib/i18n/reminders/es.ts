import type { ReminderMessages } from "./en";

export const es: ReminderMessages = {
  subject: {
    before: "Recordatorio: {amount} vence el {date} ({invoice})",
    friendly: "Recordatorio: {amount} venció el {date} ({invoice})",
    firm: "Vencido: {amount} venció el {date} ({invoice})",
    final: "Último aviso: {amount} venció el {date} ({invoice})",
  },
  greeting: "Hola, {name}:",
  lead_before: "Le recordamos que {amount} por {invoice} de {issuer} vence el {date}.",
  lead_today: "{amount} por {invoice} de {issuer} vence hoy, {date}.",
  lead_overdue: "{amount} por {invoice} de {issuer} venció el {date} y lleva {days} días de retraso.",
  lead_overdue_one: "{amount} por {invoice} de {issuer} venció el {date} y lleva un día de retraso.",
  tone: {
    friendly: "Si ya ha pagado, gracias, y no tenga en cuenta este mensaje.",
    firm: "Le rogamos que pague el importe ahora o nos indique cuándo lo hará.",
    final: "Este es nuestro último aviso. Le rogamos que pague el importe sin más demora.",
  },
  reference: "Referencia de pago (indíquela en su transferencia): {reference}",
  bank_heading: "Datos bancarios",
  account_holder: "Titular de la cuenta",
  iban: "IBAN",
  bic: "BIC",
  account_number: "Número de cuenta",
  routing_number: "Número de ruta",
  sort_code: "Sort code",
  bank_name: "Banco",
  interest: "A título informativo: intereses de demora hasta el {today} al {rate} % anual sobre {overdue}: {interest}.",
  compensation: "A título informativo: compensación fija por costes de cobro: {compensation}.",
  link: "Vea el detalle y pague en línea: {url}",
  link_label: "Ver el detalle y pagar en línea",
  closing: "Atentamente,",
};
