import { z } from "zod";
import { ZDate, ZDateOrEmpty, ZMinor, ZMinorOut, ZTimestamp, ZUuid, listEnvelope } from "@/lib/schemas/common";
import { ZCredit, ZObligationProjection } from "@/lib/schemas/obligations";
import { ZPayment, ZPaymentAllocation, ZPaymentDirection, ZSettleRemainder } from "@/lib/schemas/payments";
import { ZCsvMapping } from "@/lib/bank-statements/csv-mapping";

// Wire shapes of match suggestions and bank statement imports.

export const SIGNALS = ["payment_reference", "obligation_reference", "invoice_number", "amount", "payer", "date", "reported_payment"] as const;
export const CONFIDENCES = ["exact", "high", "medium", "low"] as const;

export const ZSuggestedAllocation = z
  .strictObject({
    obligation_id: ZUuid,
    obligation_reference: z.string().meta({ description: "The obligation's reference, e.g. OBL-7K3M9Q2X4B" }),
    invoice_number: z.string(),
    amount_minor: ZMinor.meta({ description: "What accepting allocates to this obligation: at most its outstanding amount" }),
    outstanding_minor: ZMinorOut.meta({ description: "The obligation's outstanding amount when the suggestion was computed" }),
    expected_version: z.number().int().min(1).meta({ description: "The obligation's version the suggestion was computed against" }),
  })
  .meta({ title: "SuggestedAllocation" });

export const ZEvidence = z
  .strictObject({
    signal: z.enum(SIGNALS),
    matched: z.boolean(),
    detail: z.string().meta({ description: "What was compared and found, in words a clerk reads" }),
  })
  .meta({ title: "MatchEvidence" });

export const ZSuggestion = z
  .strictObject({
    id: z.string().meta({ description: "Stable for the same payment and allocation set (it also carries the versions the suggestion was computed against)" }),
    confidence: z.enum(CONFIDENCES),
    score: z.number().min(0).max(1),
    allocations: z.array(ZSuggestedAllocation).min(1),
    evidence: z.array(ZEvidence),
  })
  .meta({ title: "MatchSuggestion" });
export type TSuggestion = z.infer<typeof ZSuggestion>;

export const ZSuggestionList = z.strictObject({ items: z.array(ZSuggestion).max(5) }).meta({ title: "MatchSuggestionList" });

export const ZSuggestionParams = z.strictObject({ id: ZUuid, suggestion: z.string().min(1).max(600) });

export const ZAcceptSuggestion = z
  .strictObject({
    settle_remainder: ZSettleRemainder.nullable()
      .optional()
      .meta({ description: "The rest's credit; `null`: leave the rest open even where the organization's tolerance would credit it" }),
  })
  .meta({ title: "AcceptSuggestion", description: "No body, `{}`, `{ settle_remainder }` or `{ settle_remainder: null }`" });
export type TAcceptSuggestion = z.infer<typeof ZAcceptSuggestion>;

export const ZAcceptSuggestionResult = z
  .strictObject({
    payment: ZPayment.meta({ description: "The payment after the allocations" }),
    allocations: z.array(ZPaymentAllocation).meta({ description: "The allocations just made, in the suggestion's order" }),
    obligations: z.array(ZObligationProjection).meta({ description: "The obligations after the change (new allocated_minor, status, version)" }),
    credits: z
      .array(ZCredit)
      .optional()
      .meta({ description: "With `settle_remainder`: the credits that settled the obligations' rests (one per obligation that had something left)" }),
  })
  .meta({ title: "AcceptSuggestionResult" });
export type TAcceptSuggestionResult = z.infer<typeof ZAcceptSuggestionResult>;

// ------------------------------------------------------------------ bank statements

export const STATEMENT_FORMATS = ["camt.053", "camt.054", "mt940", "csv"] as const;
export const MATCH_STATES = ["auto_allocated", "suggested", "unmatched"] as const;

// The csv_mapping field's JSON, described for client generators (OpenAPI 3.1 / JSON Schema
// 2020-12 `contentMediaType` + `contentSchema` on the string field).
const CSV_MAPPING_SCHEMA = (() => {
  const js = z.toJSONSchema(ZCsvMapping, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete js.$schema;
  return js;
})();

export const ZImportStatementForm = z.strictObject({
  format: z.enum(STATEMENT_FORMATS).optional().meta({ description: "Detected from the content when omitted" }),
  csv_mapping: z.string().max(10_000).optional().meta({
    description: "JSON: which CSV columns hold what (see the operation description); its schema is `contentSchema`",
    contentMediaType: "application/json",
    contentSchema: CSV_MAPPING_SCHEMA,
  }),
  auto_allocate: z.enum(["true", "false"]).optional().meta({ description: "Default `true`" }),
});
export type TImportStatementForm = z.infer<typeof ZImportStatementForm>;

export const ZBankStatement = z
  .strictObject({
    id: ZUuid,
    format: z.enum(STATEMENT_FORMATS),
    account: z
      .strictObject({ iban: z.string(), identifier: z.string(), currency: z.string() })
      .meta({ description: 'As the statement names it; "" when absent' }),
    period: z.strictObject({ from: ZDateOrEmpty, to: ZDateOrEmpty }),
    entries: z.number().int().min(0).meta({ description: "Booked transactions read (a batch booking counts each of its transactions)" }),
    credits: z.number().int().min(0),
    debits: z.number().int().min(0),
    payments_created: z.number().int().min(0),
    duplicates_skipped: z.number().int().min(0),
    auto_allocated: z.number().int().min(0),
    suggested: z.number().int().min(0).meta({ description: "Payments created that have at least one suggestion and were not allocated automatically" }),
    created_at: ZTimestamp,
  })
  .meta({ title: "BankStatement" });
export type TBankStatement = z.infer<typeof ZBankStatement>;

export const ZBankStatementItem = z
  .strictObject({
    index: z.number().int().min(0),
    payment_id: ZUuid.nullable().meta({
      description:
        "The payment this transaction became; null for a duplicate (see `duplicate_of`) and for a booking that becomes no payment (another currency than the seven, or a zero amount)",
    }),
    duplicate_of: ZUuid.nullable().meta({ description: "The payment recorded earlier for the same bank transaction; null otherwise" }),
    direction: ZPaymentDirection,
    amount_minor: ZMinorOut.meta({ description: "The absolute amount in minor units of `currency`" }),
    currency: z.string().meta({ description: "ISO 4217 code as in the statement; a booking outside the service's seven currencies becomes no payment" }),
    booked_on: ZDate,
    counterparty_name: z.string(),
    remittance: z.string(),
    bank_reference: z.string().meta({ description: "The bank's identity of the transaction (external_reference.id of the payment)" }),
    match: z.enum(MATCH_STATES),
    payment_state: z.enum(["allocated", "partially_allocated", "unallocated"]).nullable().meta({
      description:
        "The payment's allocation now (`match` is the state at import): `allocated` in full, `partially_allocated`, `unallocated`; null when the transaction became no payment or is a duplicate",
    }),
  })
  .meta({ title: "BankStatementItem" });

export const ZStatementBalance = z
  .strictObject({
    amount_minor: ZMinorOut.meta({ description: "The absolute balance in minor units of `currency`" }),
    side: z.enum(["credit", "debit"]).meta({ description: "`debit`: the account is overdrawn" }),
    currency: z.string(),
    on: ZDateOrEmpty,
  })
  .meta({ title: "StatementBalance" });

export const ZBankStatementDetail = ZBankStatement.extend({
  balances: z
    .strictObject({ opening: ZStatementBalance.nullable(), closing: ZStatementBalance.nullable() })
    .meta({ description: "The statement's opening and closing booked balances (MT940 :60F:/:62F:, camt OPBD/CLBD); null when the file has none" }),
  items: z.array(ZBankStatementItem),
}).meta({ title: "BankStatementDetail" });
export type TBankStatementDetail = z.infer<typeof ZBankStatementDetail>;
export const ZBankStatementList = listEnvelope(ZBankStatement).meta({ title: "BankStatementList" });

// ------------------------------------------------------------------ settings and stats (§12)

export const AUTO_ALLOCATE_MODES = ["reference_only", "confident"] as const;
export const TOLERANCE_KINDS = ["bank_fee", "discount"] as const;

const ZMinorOrZero = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,17})$/, "must be a non-negative integer string of minor units (at most 18 digits)")
  .meta({ example: "2500" });

export const ZTolerance = z
  .strictObject({
    max_minor: ZMinorOrZero.meta({ description: "At most this many minor units short (of the payment's currency)" }),
    max_basis_points: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .meta({ description: "and at most this share of what is owed, in basis points (200 = 2 %)", example: 200 }),
    kind: z.enum(TOLERANCE_KINDS).meta({ description: "How the rest is credited (§9 credit kind)" }),
  })
  .meta({ title: "ReconciliationTolerance" });
export type TTolerance = z.infer<typeof ZTolerance>;

export const ZReconciliationSettingsInput = z
  .strictObject({
    auto_allocate: z.enum(AUTO_ALLOCATE_MODES),
    tolerance: ZTolerance.nullable().meta({ description: "null: no tolerance, a short payment waits for a person" }),
  })
  .meta({ title: "ReconciliationSettingsInput" });
export type TReconciliationSettingsInput = z.infer<typeof ZReconciliationSettingsInput>;

export const ZReconciliationSettings = ZReconciliationSettingsInput.extend({
  updated_at: z.union([ZTimestamp, z.literal("")]).meta({ description: '"" while the defaults were never changed' }),
}).meta({ title: "ReconciliationSettings" });
export type TReconciliationSettings = z.infer<typeof ZReconciliationSettings>;

export const ZReconciliationStatsQuery = z.strictObject({
  from: ZDate.optional().meta({ description: "First booking date counted (default: 30 days before `to`)" }),
  to: ZDate.optional().meta({ description: "Last booking date counted (default: today, UTC)" }),
});

export const ZReconciliationStats = z
  .strictObject({
    from: ZDate,
    to: ZDate,
    transactions_imported: z.number().int().min(0).meta({ description: "Payments created from bank statements, booked in the period" }),
    allocated_automatically: z.number().int().min(0).meta({ description: "Of those, allocated at import without a person" }),
    accepted_as_suggested: z.number().int().min(0).meta({ description: "Of those, allocated by accepting a suggestion" }),
    allocated_by_hand: z.number().int().min(0).meta({ description: "Of those, allocated otherwise (POST /payments/{id}/allocations)" }),
    dismissed: z.number().int().min(0).meta({ description: "Of those, dismissed as not a receivable" }),
    automatic_allocations_reversed: z.number().int().min(0).meta({ description: "Automatic allocations of those payments reversed since" }),
  })
  .meta({ title: "ReconciliationStats" });
export type TReconciliationStats = z.infer<typeof ZReconciliationStats>;
