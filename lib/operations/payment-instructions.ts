import { defineOperation } from "@/lib/http/operation";
import { ZCurrencyParams, ZPaymentInstructions, ZPaymentInstructionsInput, ZPaymentInstructionsList } from "@/lib/schemas/payment-instructions";

const tags = ["Payment instructions"];

const WHO =
  "Owners and admins only, with a signed-in session: an API key gets 403 `insufficient_scope` whatever its scopes (a leaked integration key must not be able to redirect payments), members and viewers 403 `insufficient_permission`.";

export const EXAMPLE_PAYMENT_INSTRUCTIONS = {
  currency: "EUR",
  account_holder: "Acme Services GmbH",
  iban: "DE89370400440532013000",
  bic: "COBADEFFXXX",
  account_number: null,
  routing_number: null,
  sort_code: null,
  bank_name: "Commerzbank",
  note: "Please quote the payment reference so we can match your payment.",
  updated_at: "2026-11-22T10:00:00.000Z",
} as const;

export const listPaymentInstructionsOp = defineOperation({
  operationId: "listPaymentInstructions",
  method: "GET",
  path: "/payment-instructions",
  summary: "How payers pay the organization, per currency",
  description: `Every currency's payment instructions, ordered by currency code. ${WHO}`,
  tags,
  auth: "issuer",
  success: { status: 200, description: "The instructions", schema: ZPaymentInstructionsList, example: { items: [EXAMPLE_PAYMENT_INSTRUCTIONS] } },
  errors: [403],
});

export const putPaymentInstructionsOp = defineOperation({
  operationId: "putPaymentInstructions",
  method: "PUT",
  path: "/payment-instructions/{currency}",
  summary: "Set the payment instructions of one currency",
  description: `Creates or replaces the whole record of the currency (a field left out is cleared). \`account_holder\` and an \`iban\` or an \`account_number\` are required. An IBAN is checked by its country's length and its mod-97 check digits and stored without spaces; a BIC must have 8 or 11 characters in the ISO 9362 layout; otherwise 422 \`validation_failed\` naming the field (e.g. \`body.iban\`). The recipient invoice of every obligation in this currency then carries them as \`payment_instructions\` next to its \`payment_reference\`, and the hosted payment page shows them (for EUR with an IBAN also as an EPC069-12 QR code, "GiroCode"). ${WHO}`,
  tags,
  auth: "issuer",
  idempotent: "required",
  params: ZCurrencyParams,
  body: ZPaymentInstructionsInput,
  bodyExample: {
    account_holder: "Acme Services GmbH",
    iban: "DE89 3704 0044 0532 0130 00",
    bic: "COBADEFFXXX",
    bank_name: "Commerzbank",
    note: "Please quote the payment reference so we can match your payment.",
  },
  success: { status: 200, description: "The stored instructions", schema: ZPaymentInstructions, example: EXAMPLE_PAYMENT_INSTRUCTIONS },
  errors: [403],
});

export const deletePaymentInstructionsOp = defineOperation({
  operationId: "deletePaymentInstructions",
  method: "DELETE",
  path: "/payment-instructions/{currency}",
  summary: "Remove the payment instructions of one currency",
  description: `The hosted page then asks payers of that currency to contact the issuer. 404 \`not_found\` when the currency has none. ${WHO}`,
  tags,
  auth: "issuer",
  params: ZCurrencyParams,
  success: { status: 204, description: "Removed" },
  errors: [403],
});

export const paymentInstructionOperations = [listPaymentInstructionsOp, putPaymentInstructionsOp, deletePaymentInstructionsOp];
