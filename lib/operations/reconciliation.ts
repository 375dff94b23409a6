import { defineOperation } from "@/lib/http/operation";
import { ADMINISTRATION } from "@/lib/auth/permissions";
import { ZIdParams, ZPageQuery } from "@/lib/schemas/common";
import {
  ZAcceptSuggestion,
  ZAcceptSuggestionResult,
  ZBankStatement,
  ZBankStatementDetail,
  ZBankStatementList,
  ZImportStatementForm,
  ZReconciliationSettings,
  ZReconciliationSettingsInput,
  ZReconciliationStats,
  ZReconciliationStatsQuery,
  ZSuggestionList,
  ZSuggestionParams,
  type TAcceptSuggestionResult,
  type TBankStatement,
  type TBankStatementDetail,
  type TSuggestion,
} from "@/lib/schemas/reconciliation";
import { OBL, ORG, exampleProjection } from "@/lib/operations/obligation-examples";
import { ALLOC, PAY } from "@/lib/operations/payments";

const tags = ["Reconciliation"];

// Examples: one story. A EUR 1,250.00 transfer quoting the payment reference of one
// obligation, and a EUR 6,000.00 transfer paying two invoices of one customer.
const OBL2 = "9b7f1a8d-3e5c-4a2b-8c6d-8f0a2e3d5c79";
const ALLOC2 = "3f4a5b6c-7d8e-4f9a-8b1c-2d3e4f5a6b7c";
const STMT = "4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d";

const EXAMPLE_EXACT: TSuggestion = {
  id: "sug_5d2f0c1b9e8a7d6c5b4a3f21v1",
  confidence: "exact",
  score: 1,
  allocations: [
    {
      obligation_id: OBL,
      obligation_reference: "OBL-7K3M9Q2X4B",
      invoice_number: "INV-2026-0042",
      amount_minor: "125000",
      outstanding_minor: "125000",
      expected_version: 1,
    },
  ],
  evidence: [
    { signal: "payment_reference", matched: true, detail: "the remittance carries the payment reference RF45 7K3M 9Q2X 4B" },
    { signal: "obligation_reference", matched: false, detail: "the obligation reference is not in the remittance" },
    { signal: "invoice_number", matched: true, detail: "the remittance names invoice INV-2026-0042 as a whole word" },
    { signal: "amount", matched: true, detail: "the payment's EUR 1250.00 equals the outstanding amount of OBL-7K3M9Q2X4B" },
    { signal: "payer", matched: true, detail: '"NORTHWIND TRADERS LTD" is Northwind Traders' },
    { signal: "date", matched: true, detail: "received on 2026-12-29, within 7 days of the due date 2026-12-31" },
    { signal: "reported_payment", matched: false, detail: "no reported payment with this amount or reference" },
  ],
};

export const SUGGESTION_RULES = [
  "**Signals.** `payment_reference`: a checksum-valid ISO 11649 RF reference of the obligation in the remittance (spaces and case ignored). `obligation_reference`: the obligation's reference (`OBL-...`, also without the hyphen). `invoice_number`: the invoice number as a whole token — tokens are runs of letters and digits joined by `-`, `/`, `_` (and `.` between digits), so `INV-12` is not found in `INV-123`, `XINV-12` or `INV-12/2026`; identifiers shorter than 3 letters/digits are ignored. `amount`: the payment's unallocated amount equals the outstanding amount, the amount due now, a payment term's amount, or (several obligations) their sum. `payer`: the bank's counterparty name against the obligation's debtor (incoming) or creditor (outgoing), compared after folding case, accents and punctuation and dropping legal forms (Ltd, GmbH, SA, Inc, LLC, BV, SARL, AG, KG, plc, ...). `date`: received within 7 days of the reported payment date, the expected payment date or the due date. `reported_payment`: the recipient reported a payment of this amount, or with a reference found in the remittance.",
  "**Confidence.** `exact`: the remittance carries the RF payment reference of this open obligation and of no other open obligation of the organization in the payment's currency and direction (an overpayment is still `exact`; the allocation is capped at the outstanding amount). `high`: an identifier (payment reference, obligation reference or invoice number) plus the amount or the payer. `medium`: an identifier alone, the amount with the payer, or the amount with a reported payment. `low`: the amount alone, or the payer with a reported payment or a near date. Nothing else is suggested. `score` is the level's base (exact 1.0, high 0.80, medium 0.55, low 0.25) plus 0.03 per further matching signal, staying below the next level.",
  "**Several obligations.** When the remittance names several obligations (any identifier), one suggestion allocates over them, earliest due date first, each at most its outstanding amount, in total at most the payment (`high` when the outstanding amounts add up exactly to the payment, else `medium`). When a subset of at most 6 of one counterparty's open obligations (the 24 with the earliest due dates whose name matches) adds up exactly to the payment, a suggestion allocates each its outstanding amount (`medium`, `high` when the remittance names every member); the search is bounded to 2,000 steps.",
  "**Never** an obligation of another organization, a RECONCILED one, another currency, the wrong side (incoming payments go to obligations where the organization is the creditor, outgoing ones to those where it is the debtor), more than an obligation's outstanding amount, or more in total than the payment's unallocated amount.",
  "At most 5 suggestions, best first (confidence, score, fewer allocations, earlier due date). The `id` is stable for the same payment and allocation set; it also carries the obligation versions it was computed against.",
];

export const listPaymentSuggestionsOp = defineOperation({
  operationId: "listPaymentSuggestions",
  method: "GET",
  path: "/payments/{id}/suggestions",
  summary: "Match suggestions for a payment, with their evidence",
  description: [
    "At most five ways to allocate what is left of the payment, computed against the current state, best first, each with `confidence`, `score` (0..1), its `allocations` and the `evidence` of every signal in words. An empty list for a fully allocated payment. Accept one with POST /payments/{id}/suggestions/{suggestion}/accept.",
    ...SUGGESTION_RULES,
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "payments:read",
  params: ZIdParams,
  success: { status: 200, description: "The suggestions", schema: ZSuggestionList, example: { items: [EXAMPLE_EXACT] } },
});

const examplePayment = (allocated: { id: string; obligation_id: string; obligation_reference: string; amount_minor: string }[]) => {
  const total = allocated.reduce((s, a) => s + BigInt(a.amount_minor), 0n);
  return {
    id: PAY,
    organization_id: ORG,
    amount_minor: "600000",
    currency: "EUR" as const,
    direction: "incoming" as const,
    received_on: "2026-12-29",
    payer_name: "NORTHWIND TRADERS",
    reference: "December invoices",
    external_reference: { namespace: "bank:DE89370400440532013000", id: "2026122900042" },
    note: "",
    allocated_minor: total.toString(),
    unallocated_minor: (600000n - total).toString(),
    allocations: allocated.map((a) => ({ ...a, created_at: "2026-12-29T09:00:00.000Z", reversed_at: null, reversal_reason: "" })),
    created_at: "2026-12-29T08:00:00.000Z",
    updated_at: "2026-12-29T09:00:00.000Z",
    status: total === 0n ? ("unallocated" as const) : total === 600000n ? ("allocated" as const) : ("partially_allocated" as const),
    dismissal: null,
  };
};

const EXAMPLE_SPLIT: TSuggestion = {
  id: "sug_8c7b6a5f4e3d2c1b0a9f8e7dv1-2",
  confidence: "medium",
  score: 0.64,
  allocations: [
    {
      obligation_id: OBL,
      obligation_reference: "OBL-7K3M9Q2X4B",
      invoice_number: "INV-2026-0042",
      amount_minor: "250000",
      outstanding_minor: "250000",
      expected_version: 1,
    },
    {
      obligation_id: OBL2,
      obligation_reference: "OBL-9R2T5W8Y3C",
      invoice_number: "INV-2026-0051",
      amount_minor: "350000",
      outstanding_minor: "350000",
      expected_version: 2,
    },
  ],
  evidence: [
    { signal: "payment_reference", matched: false, detail: "no payment reference of these obligations in the remittance" },
    { signal: "obligation_reference", matched: false, detail: "the obligation reference is not in the remittance" },
    { signal: "invoice_number", matched: false, detail: "no invoice number of these obligations is in the remittance as a whole word" },
    { signal: "amount", matched: true, detail: "the payment's EUR 6000.00 equals the sum of the 2 obligations' outstanding amounts" },
    { signal: "payer", matched: true, detail: '"NORTHWIND TRADERS" is Northwind Traders' },
    { signal: "date", matched: true, detail: "received on 2026-12-29, within 7 days of the due date 2026-12-31" },
    { signal: "reported_payment", matched: false, detail: "no reported payment with this amount or reference" },
  ],
};

const EXAMPLE_ACCEPT: TAcceptSuggestionResult = (() => {
  const allocs = [
    { id: ALLOC, obligation_id: OBL, obligation_reference: "OBL-7K3M9Q2X4B", amount_minor: "250000" },
    { id: ALLOC2, obligation_id: OBL2, obligation_reference: "OBL-9R2T5W8Y3C", amount_minor: "350000" },
  ];
  return {
    payment: examplePayment(allocs),
    allocations: allocs.map((a) => ({ ...a, payment_id: PAY, created_at: "2026-12-29T09:00:00.000Z", reversed_at: null, reversal_reason: "" })),
    obligations: [
      exampleProjection({
        id: OBL,
        amount_minor: "250000",
        allocated_minor: "250000",
        status: "RECONCILED",
        version: 2,
        updated_at: "2026-12-29T09:00:00.000Z",
      }),
      exampleProjection({
        id: OBL2,
        reference: "OBL-9R2T5W8Y3C",
        amount_minor: "350000",
        allocated_minor: "350000",
        status: "RECONCILED",
        version: 3,
        updated_at: "2026-12-29T09:00:00.000Z",
      }),
    ],
  };
})();

export const acceptPaymentSuggestionOp = defineOperation({
  operationId: "acceptPaymentSuggestion",
  method: "POST",
  path: "/payments/{id}/suggestions/{suggestion}/accept",
  summary: "Accept a suggestion: all its allocations at once",
  description: [
    "Makes every allocation of the suggestion in one transaction, all or nothing, with the same rules as POST /payments/{id}/allocations (the payment is locked first, then each obligation is changed under its version check, in a fixed order). No body, `{}`, or `{ settle_remainder: { kind, reason } }`: each obligation's outstanding rest after its allocation is then credited (`bank_fee`, `discount` or `write_off`) in the same transaction (`credits` in the result; event `obligation.credited`). Without `settle_remainder`, a single allocation short within the organization's tolerance (§12) is credited with the tolerance's kind; `{ settle_remainder: null }` leaves the rest open.",
    "The suggestions are computed again: a `suggestion` id that is not among the current ones (the payment or an obligation's outstanding amount changed, or the evidence no longer holds) is 409 `suggestion_stale`; an obligation whose version moved since the suggestion was computed is 409 `version_conflict`. In both cases nothing changed: list the suggestions again.",
    "200 `{ payment, allocations, obligations }`: the payment after the change, the allocations made and each obligation's projection after the change. Event `payment.allocated` per allocation (webhook `data.obligation` and `data.payment`).",
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "payments:write",
  idempotent: "required",
  params: ZSuggestionParams,
  body: ZAcceptSuggestion,
  bodyExample: { settle_remainder: { kind: "bank_fee", reason: "Charges deducted by the payer's bank" } },
  success: { status: 200, description: "Accepted", schema: ZAcceptSuggestionResult, example: EXAMPLE_ACCEPT },
});

// ------------------------------------------------------------------ bank statements

const EXAMPLE_STATEMENT: TBankStatement = {
  id: STMT,
  format: "camt.053",
  account: { iban: "DE89370400440532013000", identifier: "", currency: "EUR" },
  period: { from: "2026-12-01", to: "2026-12-31" },
  entries: 42,
  credits: 30,
  debits: 12,
  payments_created: 40,
  duplicates_skipped: 2,
  auto_allocated: 21,
  suggested: 11,
  created_at: "2026-12-31T18:00:00.000Z",
};

const EXAMPLE_STATEMENT_DETAIL: TBankStatementDetail = {
  ...EXAMPLE_STATEMENT,
  balances: {
    opening: { amount_minor: "1520000", side: "credit", currency: "EUR", on: "2026-11-30" },
    closing: { amount_minor: "1645000", side: "credit", currency: "EUR", on: "2026-12-31" },
  },
  items: [
    {
      index: 0,
      payment_id: PAY,
      duplicate_of: null,
      direction: "incoming",
      amount_minor: "125000",
      currency: "EUR",
      booked_on: "2026-12-29",
      counterparty_name: "NORTHWIND TRADERS LTD",
      remittance: "RF45 7K3M 9Q2X 4B",
      bank_reference: "2026122900042",
      match: "auto_allocated",
      payment_state: "allocated",
    },
  ],
};

export const importBankStatementOp = defineOperation({
  operationId: "importBankStatement",
  method: "POST",
  path: "/bank-statements",
  summary: "Import a bank statement: every booked transaction becomes a payment, matched",
  description: [
    "multipart/form-data: `file` (required; ISO 20022 camt.053 / camt.054, SWIFT MT940, or CSV), `format` (optional: `camt.053`, `camt.054`, `mt940`, `csv`; detected from the content when omitted), `csv_mapping` (optional JSON string: which columns hold the date, amount, currency, counterparty name, remittance text and bank reference, the decimal separator, the date format and the header row; without it a CSV header is guessed from its names; an invalid mapping is 422 `validation_failed` naming the field), `auto_allocate` (optional `true`/`false`, default `true`). At most 10 MiB (else 413) and 20,000 transactions (else 422 `validation_failed`).",
    'Every booked transaction (camt `Ntry/NtryDtls/TxDtls`, a batch booking split into its transactions; MT940 `:61:` with its `:86:`; a CSV row) becomes one observed payment: `amount_minor` the absolute amount converted exactly (more decimals than the currency has is 422 `validation_failed` naming the transaction), `direction` `incoming` for a credit and `outgoing` for a debit, `received_on` the booking date (else the value date), `payer_name` the counterparty, `reference` the structured creditor reference when present, else the unstructured remittance text, and `external_reference` `{ namespace: "bank:<IBAN or account id>", id: <AcctSvcrRef, else UETR, else EndToEndId unless NOTPROVIDED, else a hash of date, amount, currency, counterparty, remittance and position> }`.',
    "A booking in a currency outside the service's seven (CAD, USD, EUR, GBP, JPY, AUD, CHF), or of a zero amount, becomes no payment: it is skipped and counted in `entries` (and `credits`/`debits`) only, and its item in GET /bank-statements/{id} has `payment_id` and `duplicate_of` both null and `match` `unmatched`. So `entries - payments_created - duplicates_skipped` bookings were skipped. (A multi-currency account statement thus imports what the service can hold instead of being refused as a whole; a statement none of whose transactions is in one of the seven is 422 `validation_failed` naming its currencies.)",
    "Re-importing a file, or an overlapping statement, creates no second payment for a transaction already recorded under the same external reference: it counts in `duplicates_skipped`, and its item names the earlier payment in `duplicate_of`.",
    "Automatic allocation (`auto_allocate`, default true): only an `exact` suggestion with a single allocation (the RF payment reference of exactly one open obligation, see GET /payments/{id}/suggestions) is applied, for the payment's unallocated amount or the obligation's outstanding amount, whichever is smaller. Everything else waits for a person: `suggested` counts created payments with at least one suggestion that were not allocated automatically.",
    "Errors: content that is no known statement 415 `unsupported_media_type`; a statement that cannot be read 422 `statement_unreadable` (the message names the line or element); a DOCTYPE in XML is refused (no DTD or entity is ever processed).",
    "Events: `bank_statement.imported` (`data.bank_statement`), `payment.recorded` per payment created, `payment.allocated` per automatic allocation.",
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "payments:write",
  idempotent: "required",
  multipart: ZImportStatementForm,
  success: { status: 201, description: "Imported", schema: ZBankStatement, example: EXAMPLE_STATEMENT },
  // Parsing, matching and writing up to 20,000 transactions is one transaction: well over
  // the default 30 s on a busy 2-core machine (docs/reconciliation.md, quality and speed).
  transactionTimeoutMs: 300_000,
});

export const listBankStatementsOp = defineOperation({
  operationId: "listBankStatements",
  method: "GET",
  path: "/bank-statements",
  summary: "List imported bank statements (newest first)",
  description: "Imports ordered by created_at, then id, both descending (stable across pages).",
  tags,
  auth: "issuer",
  permission: "payments:read",
  query: ZPageQuery,
  success: { status: 200, description: "A page of imports", schema: ZBankStatementList, example: { items: [EXAMPLE_STATEMENT], limit: 50, offset: 0 } },
});

export const getBankStatementOp = defineOperation({
  operationId: "getBankStatement",
  method: "GET",
  path: "/bank-statements/{id}",
  summary: "An imported bank statement with one item per transaction",
  description:
    "The import plus its opening and closing booked `balances` (null when the file has none) and `items`, one per transaction in file order: the payment it became (`payment_id`) or the earlier payment it duplicates (`duplicate_of`), what was read, and `match`: `auto_allocated` (allocated at import), `suggested` (has a suggestion, waits for a person) or `unmatched` (for a duplicate: `unmatched`). `match` is the state at import time; `payment_state` is the payment's allocation now (`allocated`, `partially_allocated`, `unallocated`). An id of another organization is 404.",
  tags,
  auth: "issuer",
  permission: "payments:read",
  params: ZIdParams,
  success: { status: 200, description: "The import", schema: ZBankStatementDetail, example: EXAMPLE_STATEMENT_DETAIL },
});

export const rejectPaymentSuggestionOp = defineOperation({
  operationId: "rejectPaymentSuggestion",
  method: "POST",
  path: "/payments/{id}/suggestions/{suggestion}/reject",
  summary: "Reject a suggestion: that allocation set is not suggested for this payment again",
  description: [
    "Hides the suggestion's allocation set (the part of its `id` before the versions) for this payment from then on, whatever the obligations' versions; other payments are not affected. No body, or `{}`. 200 `{ items }`: the suggestions left, as GET /payments/{id}/suggestions answers them.",
    "A `suggestion` id that is not among the current ones is 409 `suggestion_stale`. Event `payment.suggestion_rejected` (`data.payment_id`, `data.suggestion`).",
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "payments:write",
  idempotent: "required",
  params: ZSuggestionParams,
  success: { status: 200, description: "Rejected; the suggestions left", schema: ZSuggestionList, example: { items: [EXAMPLE_SPLIT] } },
});

// ------------------------------------------------------------------ settings and stats (§12)

const SETTINGS_EXAMPLE = {
  auto_allocate: "confident" as const,
  tolerance: { max_minor: "2500", max_basis_points: 200, kind: "bank_fee" as const },
  updated_at: "2026-11-28T09:00:00.000Z",
};

export const SETTINGS_RULES = [
  "`auto_allocate`: `reference_only` (the default) allocates at import only an `exact` suggestion: the checksum-valid RF payment reference of exactly one open obligation. `confident` also allocates a single-obligation suggestion when the remittance names the obligation's invoice number or obligation reference as a whole token (after normalization: case, separators, leading zeros; not a shortened, prefix-less or mistyped form), the payment's amount equals the obligation's outstanding amount or its amount due now, the currency and direction fit, and the remittance names no other open obligation of the organization.",
  "`tolerance` (`null`: none): a payment short of what is owed by at most `max_minor` minor units of its currency **and** at most `max_basis_points` of what is owed counts as paying it; the rest is to be credited with a credit of `kind` (`bank_fee` or `discount`) in the same transaction. Suggestions say so in the `amount` evidence. Until credits exist in this service, a `confident` match short within the tolerance waits for a person, and an `exact` one is allocated as before with its rest left open.",
];

export const getReconciliationSettingsOp = defineOperation({
  operationId: "getReconciliationSettings",
  method: "GET",
  path: "/reconciliation-settings",
  summary: "How bank transactions are allocated without a person",
  description: [
    'The organization\'s settings; the defaults (`reference_only`, no tolerance, `updated_at` "") until an owner or admin sets them.',
    ...SETTINGS_RULES,
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "payments:read",
  success: { status: 200, description: "The settings", schema: ZReconciliationSettings, example: SETTINGS_EXAMPLE },
});

export const putReconciliationSettingsOp = defineOperation({
  operationId: "putReconciliationSettings",
  method: "PUT",
  path: "/reconciliation-settings",
  summary: "Set how bank transactions are allocated without a person",
  description: [
    "Replaces the settings (both fields required). Issuer session of an owner or admin only: an API key is refused with 403 `insufficient_scope` (no key carries the administration permission), the member and viewer roles with 403 `insufficient_permission`. Applies to imports from then on. Event `reconciliation_settings.updated`.",
    ...SETTINGS_RULES,
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: ADMINISTRATION,
  idempotent: "required",
  body: ZReconciliationSettingsInput,
  bodyExample: { auto_allocate: "confident", tolerance: { max_minor: "2500", max_basis_points: 200, kind: "bank_fee" } },
  success: { status: 200, description: "The stored settings", schema: ZReconciliationSettings, example: SETTINGS_EXAMPLE },
});

export const getReconciliationStatsOp = defineOperation({
  operationId: "getReconciliationStats",
  method: "GET",
  path: "/reconciliation/stats",
  summary: "What became of the imported bank transactions: touchless and one-click rates",
  description:
    "Counts over the payments created from bank statements whose booking date is in [`from`, `to`] (default: the 30 days up to today, UTC; `from` after `to` is 422): `transactions_imported`; of those, each counted once by the first way it was allocated, `allocated_automatically` (at import), `accepted_as_suggested` (POST /payments/{id}/suggestions/{suggestion}/accept) and `allocated_by_hand`; `dismissed` (not a receivable) and `automatic_allocations_reversed`. Touchless rate = allocated_automatically / transactions_imported; one-click rate = accepted_as_suggested / transactions_imported.",
  tags,
  auth: "issuer",
  permission: "payments:read",
  query: ZReconciliationStatsQuery,
  success: {
    status: 200,
    description: "The figures",
    schema: ZReconciliationStats,
    example: {
      from: "2026-11-01",
      to: "2026-11-30",
      transactions_imported: 412,
      allocated_automatically: 338,
      accepted_as_suggested: 51,
      allocated_by_hand: 9,
      dismissed: 0,
      automatic_allocations_reversed: 0,
    },
  },
});

export const reconciliationOperations = [
  importBankStatementOp,
  listBankStatementsOp,
  getBankStatementOp,
  listPaymentSuggestionsOp,
  acceptPaymentSuggestionOp,
  rejectPaymentSuggestionOp,
  getReconciliationSettingsOp,
  putReconciliationSettingsOp,
  getReconciliationStatsOp,
];
