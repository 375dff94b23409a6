import { z } from "zod";
import {
  CURRENCIES,
  ZCurrency,
  ZDate,
  ZDateAnyYear,
  ZDateOrEmpty,
  ZExternalReference,
  ZMinor,
  ZMinorOut,
  ZTimestamp,
  ZPageQuery,
  ZUuid,
  listEnvelope,
} from "@/lib/schemas/common";

// Wire shapes of obligations and invoices (the contract: the OpenAPI document is generated from these).
// Request objects are strict (unknown properties -> 422); response objects list exactly
// the fields of the contract.

export const OBLIGATION_TYPES = ["invoice", "payment_condition", "contractual"] as const;
export const ORGANIZATION_ROLES = ["creditor", "debtor"] as const;
export const OBLIGATION_STATUSES = ["OBLIGATION_CAPTURED", "PAYMENT_REQUESTED", "PAYMENT_CLAIMED", "PARTIALLY_RECONCILED", "RECONCILED"] as const;
export const CONDITION_STATUSES = ["waiting", "satisfied", "waived"] as const;
export const SUMMARY_STATUSES = ["pending", "satisfied", "waived"] as const;
export const AMOUNT_TYPES = ["fixed", "percentage"] as const;
export const TRIGGER_TYPES = ["immediately", "specific_date", "condition_satisfied"] as const;
export const DUE_RULES = ["immediately", "specific_date", "days_after_trigger"] as const;
// Largest `due_days` of a term; with the date range of ZDate it keeps every computed
// `payable_on` inside the years addDays can write (lib/schemas/common.ts).
export const MAX_DUE_DAYS = 36500;
export const DOCUMENT_KINDS = ["invoice", "supporting", "payment_evidence", "bank_observation"] as const;
export const CONTEXT_TYPES = ["company", "project", "order", "invoice", "external_object"] as const;
export const CONTEXT_KINDS = ["company", "group", "reference"] as const;

const INT32_MAX = 2147483647;

export const ZExpectedVersion = z
  .number()
  .int()
  .min(1)
  .max(INT32_MAX)
  .meta({ description: "The obligation `version` the caller last saw (optimistic concurrency); a stale value is 409 `version_conflict`", example: 1 });

export const ZObligationType = z.enum(OBLIGATION_TYPES);
export const ZObligationStatus = z.enum(OBLIGATION_STATUSES).meta({
  description:
    "OBLIGATION_CAPTURED (registered) -> PAYMENT_REQUESTED (mark_sent, or the recipient opens the link) -> PAYMENT_CLAIMED (recipient report_payment) -> PARTIALLY_RECONCILED (0 < allocated < amount) -> RECONCILED (allocated = amount). Allocation (or a credit) may jump to (PARTIALLY_)RECONCILED from any earlier state; nothing leaves RECONCILED except the reversal of an allocation or a credit, which recomputes the status.",
});

export const ZParty = z.strictObject({
  name: z.string().min(1).max(500),
  email: z.string().max(320).optional(),
});

const ZPartyOut = z.strictObject({ name: z.string(), email: z.string().optional() });

// ---------------------------------------------------------------- conditions and terms

export const ZConditionInput = z.strictObject({
  id: ZUuid.optional().meta({ description: "Ignored on registration except as a target of a term's `condition_id`; the service assigns ids" }),
  key: z.string().min(1).max(120),
  label: z.string().min(1).max(250),
  external_reference: ZExternalReference.optional(),
  status: z.enum(CONDITION_STATUSES).optional().meta({ description: "Default `waiting`" }),
  satisfied_on: ZDate.optional().meta({ description: "For a satisfied or waived condition; defaults to the registration date" }),
  source: z.string().max(500).optional(),
  evidence_reference: z.string().max(500).optional(),
});
export type TConditionInput = z.infer<typeof ZConditionInput>;

export const ZConditionItem = z
  .strictObject({
    id: ZUuid,
    key: z.string(),
    label: z.string(),
    external_reference: ZExternalReference.optional(),
    status: z.enum(CONDITION_STATUSES),
    satisfied_on: ZDate.optional().meta({ description: "Set once satisfied (or the date it was waived)" }),
    source: z.string().optional(),
    evidence_reference: z.string().optional(),
  })
  .meta({ id: "ConditionItem", title: "ConditionItem" });

export const ZPaymentTermInput = z.strictObject({
  id: ZUuid.optional().meta({ description: "Ignored on registration; the service assigns ids" }),
  sequence: z.number().int().min(1).max(INT32_MAX),
  label: z.string().max(250).optional(),
  amount_type: z.enum(AMOUNT_TYPES),
  fixed_amount_minor: ZMinor.optional().meta({ description: "Required for `fixed` terms" }),
  percentage_basis_points: z.number().int().min(1).max(10000).optional().meta({ description: "Required for `percentage` terms (1 to 10000)" }),
  amount_minor: ZMinor.optional().meta({ description: "Computed; when sent it must equal the computed amount" }),
  trigger_type: z.enum(TRIGGER_TYPES),
  trigger_date: ZDate.optional().meta({ description: "Required for trigger `specific_date`" }),
  condition_id: ZUuid.optional().meta({ description: "For trigger `condition_satisfied`: the `id` of a condition given in the same request" }),
  condition_key: z
    .string()
    .min(1)
    .max(120)
    .optional()
    .meta({ description: "For trigger `condition_satisfied`: the key of a condition given in the same request" }),
  due_rule: z.enum(DUE_RULES),
  due_date: ZDate.optional().meta({ description: "Required for due rule `specific_date`" }),
  due_days: z.number().int().min(1).max(MAX_DUE_DAYS).optional().meta({ description: "Required for due rule `days_after_trigger`" }),
  triggered_on: ZDateAnyYear.optional().meta({ description: "Computed; ignored on input" }),
  payable_on: ZDateAnyYear.optional().meta({ description: "Computed; ignored on input" }),
});
export type TPaymentTermInput = z.infer<typeof ZPaymentTermInput>;

export const ZPaymentTermItem = z
  .strictObject({
    id: ZUuid,
    sequence: z.number().int().min(1),
    label: z.string().optional(),
    amount_type: z.enum(AMOUNT_TYPES),
    fixed_amount_minor: ZMinor.optional(),
    percentage_basis_points: z.number().int().min(1).max(10000).optional(),
    amount_minor: ZMinor.optional().meta({ description: "The term's amount (percentage terms: floor, remainder to the last percentage term)" }),
    trigger_type: z.enum(TRIGGER_TYPES),
    trigger_date: ZDate.optional(),
    condition_id: ZUuid.optional(),
    condition_key: z.string().optional(),
    due_rule: z.enum(DUE_RULES),
    due_date: ZDate.optional(),
    due_days: z.number().int().min(1).max(MAX_DUE_DAYS).optional(),
    triggered_on: ZDateAnyYear.optional().meta({ description: "When the trigger fires; absent while a condition is still waiting" }),
    payable_on: ZDateAnyYear.optional().meta({ description: "The calculated due date; absent while unknown" }),
  })
  .meta({ id: "PaymentTermItem", title: "PaymentTermItem" });

export const ZContextEntry = z
  .strictObject({
    id: ZUuid,
    type: z.enum(CONTEXT_TYPES),
    kind: z.enum(CONTEXT_KINDS),
    type_label: z.string(),
    name: z.string(),
    reference: z.string(),
    relationship_type: z.string(),
    attributed_minor: ZMinor.optional(),
    currency: z.string().optional(),
  })
  .meta({ id: "ContextEntry", title: "ContextEntry" });

// ---------------------------------------------------------------- registration

export const ZLegacyCondition = z
  .strictObject({
    summary: z.string().max(2000).optional(),
    status: z.enum(SUMMARY_STATUSES).optional().meta({ description: "Default `pending`" }),
    satisfied_on: ZDateOrEmpty.optional(),
  })
  .meta({ description: "Single summary condition (earlier shape); with `conditions` the summary status is derived from them" });

export const ZRegisterObligation = z
  .strictObject({
    obligation_type: ZObligationType,
    organization_role: z.enum(ORGANIZATION_ROLES).optional().meta({ description: "The role of the calling organization; default `creditor`" }),
    external_reference: ZExternalReference,
    debtor: ZParty.optional().meta({ description: "Default when the organization is the debtor: the organization's name" }),
    creditor: ZParty.optional().meta({ description: "Default when the organization is the creditor: the organization's name" }),
    amount_minor: ZMinor,
    currency: ZCurrency,
    deadline: ZDate,
    business_context: z.strictObject({ invoice_number: z.string().min(1).max(200), description: z.string().max(5000).optional() }),
    label: z.string().max(500).optional(),
    condition: ZLegacyCondition.optional(),
    conditions: z.array(ZConditionInput).max(100).optional(),
    payment_terms: z.array(ZPaymentTermInput).max(100).optional(),
    context_ids: z
      .array(ZUuid)
      .max(100)
      .optional()
      .meta({ description: "Ids of business contexts of the organization; each is linked with relationship_type `related`" }),
  })
  .meta({ title: "RegisterObligation" });
export type TRegisterObligation = z.infer<typeof ZRegisterObligation>;

// ---------------------------------------------------------------- records

export const ZInvoiceRecord = z
  .strictObject({
    id: ZUuid,
    organization_id: ZUuid,
    issuer_name: z.string(),
    reference: z.string().meta({ description: "Unique correlation reference, e.g. OBL-7K3M9Q2X4B" }),
    obligation_type: ZObligationType,
    organization_role: z.enum(ORGANIZATION_ROLES),
    obligation_label: z.string(),
    creditor_name: z.string(),
    creditor_email: z.string(),
    debtor_name: z.string(),
    debtor_email: z.string(),
    recipient_name: z.string().meta({ description: "The counterparty: the debtor when the organization is the creditor, else the creditor" }),
    recipient_email: z.string(),
    external_namespace: z.string(),
    external_id: z.string(),
    invoice_number: z.string(),
    description: z.string(),
    condition_summary: z.string(),
    condition_status: z
      .enum(SUMMARY_STATUSES)
      .meta({ description: "`satisfied` when every condition is satisfied or waived (also when there are none), else `pending`" }),
    condition_satisfied_on: ZDateOrEmpty,
    conditions: z.array(ZConditionItem),
    payment_terms: z.array(ZPaymentTermItem),
    contexts: z.array(ZContextEntry),
    amount_minor: ZMinor,
    allocated_minor: ZMinorOut,
    payable_minor: ZMinorOut.meta({ description: "Gross amount activated by payment terms (recalculated on every read, today in UTC)" }),
    due_minor: ZMinorOut.meta({ description: "Gross payable amount whose calculated due date has arrived" }),
    currency: z.enum(CURRENCIES),
    due_date: ZDate,
    expected_payment_date: ZDateOrEmpty,
    reported_payment_date: ZDateOrEmpty,
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
    link_expires_at: ZTimestamp,
    status: ZObligationStatus,
    version: z.number().int().min(1),
    acknowledged: z.boolean(),
    link_revoked: z.boolean(),
  })
  .meta({ id: "InvoiceRecord", title: "InvoiceRecord" });
export type TInvoiceRecord = z.infer<typeof ZInvoiceRecord>;

export const ZObligationProjection = z
  .strictObject({
    id: ZUuid,
    organization_id: ZUuid,
    reference: z.string().optional(),
    amount_minor: ZMinor,
    allocated_minor: ZMinorOut,
    payable_minor: ZMinorOut,
    due_minor: ZMinorOut,
    currency: z.enum(CURRENCIES),
    expected_payment_date: ZDateOrEmpty,
    reported_payment_date: ZDateOrEmpty,
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
    status: ZObligationStatus,
    version: z.number().int().min(1),
    acknowledged: z.boolean(),
    obligation_type: ZObligationType,
    organization_role: z.enum(ORGANIZATION_ROLES),
    external_reference: ZExternalReference,
    debtor: ZPartyOut,
    deadline: ZDate,
    business_context: z.strictObject({ invoice_number: z.string(), description: z.string().optional() }),
    creditor: ZPartyOut,
    label: z.string(),
    condition: z.strictObject({ summary: z.string(), status: z.enum(SUMMARY_STATUSES), satisfied_on: ZDateOrEmpty }),
    conditions: z.array(ZConditionItem),
    payment_terms: z.array(ZPaymentTermItem),
    contexts: z.array(ZContextEntry),
  })
  .meta({ id: "ObligationProjection", title: "ObligationProjection" });
export type TObligationProjection = z.infer<typeof ZObligationProjection>;

export const ZPaymentRequest = z
  .strictObject({
    id: ZUuid,
    obligation_id: ZUuid,
    hosted_url: z.string().meta({ description: "Bearer capability URL `{PUBLIC_BASE_URL}/r/{request_id}#{token}`; never log it" }),
    expires_at: ZTimestamp,
  })
  .meta({ id: "PaymentRequest", title: "PaymentRequest" });

export const ZPaymentRequestView = ZPaymentRequest.extend({ revoked: z.boolean() }).meta({ title: "PaymentRequestView" });

export const ZPaymentReference = z.string().meta({
  description:
    "ISO 11649 RF creditor reference of the obligation (`RF` + 2 check digits + up to 21 letters/digits), unique within the organization, stored and returned without spaces; show it to people in groups of four (`RF18 5390 0754 7034`). Payers quote it so the payment matches by itself.",
  example: "RF637K3M9Q2X4B",
});

// GET /obligations/{id}/payment-request: the view plus the obligation's payment reference.
export const ZPaymentRequestResource = ZPaymentRequestView.extend({ payment_reference: ZPaymentReference }).meta({ title: "PaymentRequestResource" });

export const ZMutationResult = z
  .strictObject({
    invoice: ZInvoiceRecord,
    operation_id: z.string().meta({ description: "The id of the event the operation produced" }),
    event_type: z.string(),
    tracking_url: z.string().optional(),
    document_id: z.string().optional(),
    observation_id: z.string().optional(),
    obligation: ZObligationProjection.optional(),
    payment_request: ZPaymentRequest.optional(),
  })
  .meta({ id: "MutationResult", title: "MutationResult" });
export type TMutationResult = z.infer<typeof ZMutationResult>;

// ---------------------------------------------------------------- details

export const ZAuditEntry = z.strictObject({
  id: ZUuid,
  event_type: z.string(),
  actor: z.strictObject({ type: z.enum(["api_key", "user", "recipient", "system"]), id: z.string(), label: z.string() }),
  created_at: ZTimestamp,
  detail: z.record(z.string(), z.unknown()),
});

export const ZDocumentItem = z.strictObject({
  id: ZUuid,
  kind: z.enum(DOCUMENT_KINDS),
  filename: z.string(),
  content_type: z.string().meta({ description: "The sniffed content type" }),
  size_bytes: z.number().int(),
  sha256: z.string(),
  uploaded_by: z.enum(["issuer", "recipient"]),
  created_at: ZTimestamp,
});

export const ZMessageItem = z.strictObject({
  id: ZUuid,
  author_type: z.enum(["issuer", "recipient"]),
  author_name: z.string(),
  body: z.string(),
  created_at: ZTimestamp,
});

// ---------------------------------------------------------------- credits (settling without money)

export const CREDIT_KINDS = ["credit_note", "cancellation", "write_off", "discount", "bank_fee"] as const;
export const ZCreditKind = z.enum(CREDIT_KINDS).meta({
  description:
    "`credit_note` (a credit note to the debtor), `cancellation` (the whole outstanding amount: the obligation is cancelled), `write_off` (uncollectable), `discount` (e.g. early payment), `bank_fee` (charges deducted by the banks)",
});
export type TCreditKind = z.infer<typeof ZCreditKind>;

export const ZCreateCredit = z
  .strictObject({
    expected_version: ZExpectedVersion,
    kind: ZCreditKind,
    amount_minor: ZMinor.optional().meta({
      description:
        "At most the outstanding amount (`amount_minor - allocated_minor`), else 422 `allocation_exceeds_remaining`. Required except for `cancellation`, which always credits the whole outstanding amount (when sent it must equal it)",
    }),
    reason: z.string().trim().min(1).max(500).meta({ description: "Why (1..500 characters), shown in the history" }),
    reference: z.string().max(200).optional().meta({ description: 'E.g. the credit note\'s number (default "")' }),
    document_id: ZUuid.optional().meta({ description: "A document of this obligation that supports the credit (e.g. the credit note)" }),
  })
  .meta({ title: "CreateCredit" });
export type TCreateCredit = z.infer<typeof ZCreateCredit>;

export const ZCredit = z
  .strictObject({
    id: ZUuid,
    obligation_id: ZUuid,
    kind: ZCreditKind,
    amount_minor: ZMinor,
    reason: z.string(),
    reference: z.string(),
    document_id: ZUuid.nullable(),
    created_at: ZTimestamp,
    reversed_at: ZTimestamp.nullable().meta({ description: "When the credit was reversed; `null` while it counts" }),
    reversal_reason: z.string().meta({ description: 'Why it was reversed ("" while it counts)' }),
  })
  .meta({ id: "Credit", title: "Credit" });
export type TCredit = z.infer<typeof ZCredit>;

export const ZSettled = z
  .strictObject({
    by_payments_minor: ZMinorOut.meta({ description: "The part of `allocated_minor` settled by live payment allocations" }),
    by_credits_minor: ZMinorOut.meta({ description: "The part of `allocated_minor` settled by live credits" }),
  })
  .meta({ title: "Settled" });

export const ZCreditResult = z
  .strictObject({
    credit: ZCredit,
    obligation: ZObligationProjection.meta({ description: "The obligation after the change: new `allocated_minor`, `status` and `version`" }),
  })
  .meta({ title: "CreditResult" });
export type TCreditResult = z.infer<typeof ZCreditResult>;
// The obligation's current dispute and promise (docs/recipient-portal.md; null when there never was
// one). Their history is the audit trail.
export const DISPUTE_REASONS = ["not_received", "wrong_amount", "already_paid", "quality", "other"] as const;
export const ZDisputeView = z
  .strictObject({
    status: z.enum(["open", "accepted", "rejected"]),
    reason: z.enum(DISPUTE_REASONS),
    message: z.string(),
    amount_minor: ZMinorOut.nullable().meta({ description: "The amount the payer disputes, when it said" }),
    opened_at: ZTimestamp,
    resolved_at: ZTimestamp.nullable(),
    resolution_message: z.string().nullable().meta({ description: "The issuer's answer (resolve_dispute)" }),
  })
  .meta({
    id: "Dispute",
    title: "Dispute",
    description: "The latest dispute: open (obligation.overdue waits) or resolved (accepted / rejected), null when never disputed",
  });
export type TDisputeView = z.infer<typeof ZDisputeView>;

export const ZPromiseView = z
  .strictObject({
    date: ZDate,
    amount_minor: ZMinorOut,
    status: z.enum(["open", "kept", "broken"]),
    made_at: ZTimestamp,
    decided_at: ZTimestamp.nullable(),
  })
  .meta({
    id: "PaymentPromise",
    title: "PaymentPromise",
    description:
      "The latest promise to pay: kept when the settled amount has grown by `amount_minor` by `date` + 3 days, else broken at the sweep after that day; null when never promised",
  });
export type TPromiseView = z.infer<typeof ZPromiseView>;

export const ZObligationReminder = z
  .strictObject({
    offset_days: z.number().int().meta({ description: "The policy step: days relative to the due date (negative: before)" }),
    tone: z.enum(["friendly", "firm", "final"]),
    channel: z.enum(["webhook", "email"]),
    status: z
      .enum(["sent", "due", "failed"])
      .meta({ description: "`due`: waiting to be sent (or to be retried after a failure); `failed`: every attempt failed" }),
    scheduled_on: ZDate.meta({ description: "The day the step was reached" }),
    language: z.string().meta({ description: "The language of its text" }),
    sent_at: ZTimestamp.nullable(),
    last_error: z.string().meta({ description: 'The SMTP answer of the last failed attempt ("" when none)' }),
  })
  .meta({ id: "ObligationReminder", title: "ObligationReminder" });

const detailExtras = {
  credits: z.array(ZCredit).meta({ description: "Every credit of the obligation, oldest first (reversed ones too, with `reversed_at`)" }),
  settled: ZSettled,
  outstanding_minor: ZMinorOut.meta({ description: 'What is left to allocate: `amount_minor - allocated_minor` ("0" once RECONCILED)' }),
  payment_reference: ZPaymentReference,
  audit_trail: z.array(ZAuditEntry).meta({
    description:
      "The obligation's events, oldest first: who, what, when. The most recent 100; `audit_trail_total` says how many there are, GET /obligations/{id}/audit-trail pages through all of them",
  }),
  audit_trail_total: z.number().int().min(0).meta({ description: "How many events the audit trail holds in all" }),
  documents: z.array(ZDocumentItem),
  messages: z.array(ZMessageItem).meta({
    description: "The message thread, oldest first: its most recent 100 messages (earlier ones: GET /obligations/{id}/messages)",
  }),
  messages_total: z.number().int().min(0).meta({ description: "How many messages the thread holds in all" }),
  payment_request: ZPaymentRequestView.extend({
    hosted_url: z.string().meta({
      description:
        'Bearer capability URL `{PUBLIC_BASE_URL}/r/{request_id}#{token}`, never log it. A write capability: "" for a reader without `obligations:write` (API key scope) or below the member role',
    }),
  }).meta({ title: "PaymentRequestView" }),
  dispute: ZDisputeView.nullable(),
  promise: ZPromiseView.nullable(),
  reminders: z.array(ZObligationReminder).meta({ description: "The reminders sent, due or failed under the reminder policy (docs/reminders.md), by step" }),
};

// GET /obligations/{id}/messages and /audit-trail: newest first, paged with limit/offset.
export const ZMessagePage = listEnvelope(ZMessageItem);
export const ZAuditTrailPage = listEnvelope(ZAuditEntry);

export const ZInvoiceDetail = ZInvoiceRecord.extend(detailExtras).meta({ title: "InvoiceDetail" });
export const ZObligationDetail = ZObligationProjection.extend(detailExtras).meta({ title: "ObligationDetail" });

export const ZInvoiceList = listEnvelope(ZInvoiceRecord);
export const ZObligationList = listEnvelope(ZObligationProjection);

// ---------------------------------------------------------------- actions

const v = { expected_version: ZExpectedVersion };

export const ZIssuerAction = z
  .discriminatedUnion("action", [
    z
      .strictObject({ action: z.literal("mark_sent"), ...v })
      .meta({ description: "OBLIGATION_CAPTURED -> PAYMENT_REQUESTED. Event obligation.payment_requested" }),
    z
      .strictObject({ action: z.literal("revoke_link"), ...v })
      .meta({ description: "Revokes the hosted link (409 invalid_state when already revoked). Event obligation.link_revoked" }),
    z.strictObject({ action: z.literal("reissue_link"), ...v }).meta({
      description:
        "New token and expires_at, old link dead, revocation cleared; the result carries payment_request (409 invalid_state when RECONCILED). Event obligation.link_reissued",
    }),
    z
      .strictObject({ action: z.literal("set_expected_payment_date"), ...v, expected_payment_date: ZDate })
      .meta({ description: "Event obligation.expected_payment_date_set" }),
    z.strictObject({ action: z.literal("post_message"), ...v, message: z.string().min(1).max(4000) }).meta({ description: "Event obligation.message_posted" }),
    z
      .strictObject({
        action: z.literal("amend"),
        ...v,
        amount_minor: ZMinor.optional(),
        deadline: ZDate.optional(),
        debtor: ZParty.optional(),
        creditor: ZParty.optional(),
        label: z.string().max(500).optional(),
        business_context: z.strictObject({ invoice_number: z.string().min(1).max(200), description: z.string().max(5000).optional() }).optional(),
        payment_terms: z.array(ZPaymentTermInput).max(100).optional(),
      })
      .meta({
        description:
          'Corrects the obligation while nothing is settled (`allocated_minor` "0", else 409 invalid_state): any of amount_minor, deadline, debtor, creditor, label, business_context, payment_terms (which replace the terms; validated as at registration, 422 payment_terms_mismatch; without them the existing terms are recalculated for a new amount). Event obligation.amended with `data.changes` `{ field: { from, to } }`',
      }),
    z.strictObject({ action: z.literal("waive_condition"), ...v, condition_id: ZUuid }).meta({
      description:
        "Waives a waiting condition and recalculates the terms (404 unknown condition, 409 invalid_state when not waiting). Event obligation.condition_waived",
    }),
    z
      .strictObject({
        action: z.literal("resolve_dispute"),
        ...v,
        outcome: z
          .enum(["accepted", "rejected"])
          .meta({ description: "accepted: the payer is right (a credit, if any, is a separate step); rejected: the claim stands" }),
        message: z.string().trim().min(1).max(4000).meta({ description: "The answer the payer sees on the hosted page" }),
      })
      .meta({
        description:
          "Resolves the open dispute (409 `invalid_state` when none is open); overdue events that waited are emitted at the next sweep. Event obligation.dispute_resolved",
      }),
  ])
  .meta({ title: "IssuerActionInput" });
export type TIssuerAction = z.infer<typeof ZIssuerAction>;

export const ZSatisfyCondition = z
  .strictObject({
    expected_version: ZExpectedVersion,
    satisfied_on: ZDate.optional().meta({ description: "Default: today (UTC)" }),
    evidence_reference: z.string().max(500).optional(),
    source: z.string().max(500).optional(),
  })
  .meta({ title: "SatisfyConditionInput" });
export type TSatisfyCondition = z.infer<typeof ZSatisfyCondition>;

// ---------------------------------------------------------------- invoices adapter

export const ZCreateInvoice = z
  .strictObject({
    invoice_number: z.string().min(1).max(200),
    amount_minor: ZMinor,
    currency: ZCurrency,
    due_date: ZDate,
    recipient: ZParty,
    description: z.string().max(5000).optional(),
    external_reference: ZExternalReference.optional().meta({ description: 'Default `{ namespace: "invoice", id: invoice_number }`' }),
  })
  .meta({ title: "CreateInvoice" });
export type TCreateInvoice = z.infer<typeof ZCreateInvoice>;

export const ZDeliveryDraft = z
  .strictObject({
    to: z.string().meta({ description: 'RFC 5322 address `"Name" <email>`, or "" when the recipient has no email' }),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    hosted_url: z.string(),
  })
  .meta({ title: "DeliveryDraft" });

// ---------------------------------------------------------------- documents

export const ZDocumentForm = z.strictObject({
  expected_version: z.coerce.number().int().min(1).max(INT32_MAX).meta({ description: "The obligation version the caller last saw" }),
  kind: z.enum(DOCUMENT_KINDS).optional().meta({ description: "Default `supporting`" }),
});

// ---------------------------------------------------------------- params

export const ZObligationConditionParams = z.strictObject({ id: ZUuid, condition: ZUuid });
export const ZObligationDocumentParams = z.strictObject({ id: ZUuid, document: ZUuid });
export const ZObligationCreditParams = z.strictObject({ id: ZUuid, credit: ZUuid });

// GET /obligations query: paging plus optional filters, search and sort. Every filter is
// optional; absent or empty means "no filter" (so a form can send its empty fields). Without
// sort the order is the original one (created_at, then id, both descending).
const csvOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .transform((s) =>
      s
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(values, { message: `must be one or more of ${values.join(", ")} (comma-separated)` })));

const emptyOr = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.enum(["", ...values] as unknown as readonly ["", ...T], { message });

export const OBLIGATION_SORTS = ["created_at", "updated_at", "deadline", "amount", "outstanding"] as const;

export const ZObligationListQuery = ZPageQuery.extend({
  status: csvOf(OBLIGATION_STATUSES).optional().meta({ description: "Only these statuses (comma-separated), e.g. `PAYMENT_REQUESTED,PARTIALLY_RECONCILED`." }),
  role: emptyOr(ORGANIZATION_ROLES, "must be creditor or debtor")
    .optional()
    .meta({ description: "Only obligations where the organization is the `creditor` (owed to it) or the `debtor` (it owes)." }),
  type: csvOf(OBLIGATION_TYPES).optional().meta({ description: "Only these obligation types (comma-separated)." }),
  currency: emptyOr(CURRENCIES, `must be one of ${CURRENCIES.join(", ")}`)
    .optional()
    .meta({ description: "Only obligations in this currency." }),
  overdue: z
    .enum(["", "true", "false"], { message: "must be true or false" })
    .transform((v) => (v === "" ? undefined : v === "true"))
    .optional()
    .meta({ description: "`true`: only overdue obligations (deadline before today in UTC and not RECONCILED); `false`: only the others." }),
  context_id: z
    .union([z.literal(""), ZUuid], { message: "must be a UUID" })
    .optional()
    .meta({ description: "Only obligations linked to this business context (of your organization; any other id matches nothing)." }),
  search: z.string().trim().max(200).optional().meta({
    description:
      "Case-insensitive substring of the reference, invoice number, creditor or debtor name or email, external id, or payment reference (an RF reference may be written with spaces).",
  }),
  sort: z
    .enum(OBLIGATION_SORTS, { message: `must be one of ${OBLIGATION_SORTS.join(", ")}` })
    .default("created_at")
    .meta({
      description:
        "Order of the items: `created_at` (default), `updated_at`, `deadline`, `amount` (amount_minor) or `outstanding` (amount_minor - allocated_minor). Ties are broken by id in the same direction, so pages are stable.",
    }),
  direction: z
    .enum(["asc", "desc"], { message: "must be asc or desc" })
    .optional()
    .meta({ description: "`asc` or `desc`. Default: `asc` for `deadline`, `desc` for every other sort." }),
});
export type TObligationListQuery = z.output<typeof ZObligationListQuery>;
