import { defineOperation } from "@/lib/http/operation";
import { ZIdParams, ZPageQuery } from "@/lib/schemas/common";
import { ZReverseEntry } from "@/lib/schemas/payments";
import {
  ZAuditTrailPage,
  ZCreateCredit,
  ZCreditResult,
  ZObligationCreditParams,
  ZDocumentForm,
  ZIssuerAction,
  ZMessagePage,
  ZMutationResult,
  ZObligationConditionParams,
  ZObligationDetail,
  ZObligationDocumentParams,
  ZObligationList,
  ZObligationListQuery,
  ZPaymentRequestResource,
  ZRegisterObligation,
  ZSatisfyCondition,
} from "@/lib/schemas/obligations";
import {
  EXAMPLE_PAYMENT_REQUEST,
  EXAMPLE_REGISTER,
  exampleMutationResult,
  exampleObligationDetail,
  exampleObligationList,
  exampleProjection,
  OBL,
} from "@/lib/operations/obligation-examples";
import { ATTACHMENT_SUCCESS } from "@/lib/operations/responses";

const tags = ["Obligations"];

export const registerObligationOp = defineOperation({
  operationId: "registerObligation",
  method: "POST",
  path: "/obligations",
  summary: "Register an obligation (and its hosted payment request)",
  description: [
    "Creates, in one transaction, the obligation with its conditions, payment terms and business-context links, its secure hosted payment request, the `obligation.registered` event and the idempotency record.",
    "`organization_role` defaults to `creditor`. When the organization is the creditor and `creditor` is omitted, the creditor is the organization (likewise for the debtor). The recipient is the counterparty.",
    "Conditions get ids; a term with trigger `condition_satisfied` names its condition by `condition_key` (or by the `id` given to a condition in the same request). Terms must add up to `amount_minor` (422 `payment_terms_mismatch`).",
    "The earlier, narrower body (obligation_type `invoice`, `debtor` with `email`, no creditor/label/conditions/terms/context_ids) is a valid subset. The single `condition` object sets the summary condition; with `conditions` the summary status is derived from them.",
    "The result's `payment_request.hosted_url` is a bearer capability: put it in your own message to the recipient and never log it. Event `obligation.registered`; `operation_id` is the event id.",
    "No silent duplicates: an `external_reference` (namespace + id) that already names an obligation of the organization that is not cancelled is 409 `duplicate`, the message naming the existing obligation's id (cancel it with a `cancellation` credit first, or correct it with the `amend` action). A retry with the same Idempotency-Key still replays the stored response.",
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "obligations:write",
  idempotent: "required",
  body: ZRegisterObligation,
  bodyExample: EXAMPLE_REGISTER,
  success: {
    status: 201,
    description: "Registered",
    schema: ZMutationResult,
    example: exampleMutationResult("obligation.registered", { withPaymentRequest: true }),
  },
});

export const listObligationsOp = defineOperation({
  operationId: "listObligations",
  method: "GET",
  path: "/obligations",
  summary: "List obligations (filter, search, sort; newest first by default)",
  description: [
    "Items are obligation projections. Without `sort` they are ordered by created_at, then id, both descending (stable across pages). `payable_minor` and `due_minor` are recalculated on every read.",
    "Every filter is optional and they combine with AND: `status` and `type` take comma-separated lists, `role`, `currency`, `overdue` and `context_id` one value each; `search` is a case-insensitive substring of the reference, invoice number, creditor or debtor name or email, external id or payment reference.",
    "`sort` orders by `created_at`, `updated_at`, `deadline`, `amount` or `outstanding`, in `direction` `asc` or `desc`; ties are broken by id in the same direction, so paging with `limit`/`offset` neither repeats nor skips an item while the data does not change.",
    "An invalid value of any parameter is 422 `validation_failed` naming the parameter (e.g. `query.status: ...`).",
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "obligations:read",
  query: ZObligationListQuery,
  success: { status: 200, description: "A page of obligations", schema: ZObligationList, example: exampleObligationList() },
});

export const getObligationOp = defineOperation({
  operationId: "getObligation",
  method: "GET",
  path: "/obligations/{id}",
  summary: "Obligation detail with audit trail",
  description:
    'The obligation projection plus `audit_trail` (events, oldest first: who, what, when), `documents`, `messages`, the `payment_request` view, `credits` (every credit, reversed ones too) and `settled` (`allocated_minor` split into what payments and what credits settled). An id of another organization is 404.\n\nThe audit trail and the messages hold their most recent 100 entries; `audit_trail_total` and `messages_total` say how many there are, and GET /obligations/{id}/audit-trail and /messages page through all of them.\n\n`payment_request.hosted_url` is a write capability: a reader without `obligations:write` (API key) or below the member role (person) gets it as "" (GET /obligations/{id}/payment-request is 403 for them).',
  tags,
  auth: "issuer",
  permission: "obligations:read",
  params: ZIdParams,
  success: { status: 200, description: "The obligation", schema: ZObligationDetail, example: exampleObligationDetail() },
});

export const listObligationMessagesOp = defineOperation({
  operationId: "listObligationMessages",
  method: "GET",
  path: "/obligations/{id}/messages",
  summary: "The whole message thread, newest first, a page at a time",
  description:
    "The detail holds the most recent 100 messages; this pages through all of them, newest first, with `limit` (1 to 100, default 50) and `offset`. Works for invoices too (the same ids). An id of another organization is 404.",
  tags,
  auth: "issuer",
  permission: "obligations:read",
  params: ZIdParams,
  query: ZPageQuery,
  success: { status: 200, description: "A page of messages", schema: ZMessagePage, example: { items: [], limit: 50, offset: 0 } },
});

export const listAuditTrailOp = defineOperation({
  operationId: "listObligationAuditTrail",
  method: "GET",
  path: "/obligations/{id}/audit-trail",
  summary: "The whole audit trail, newest first, a page at a time",
  description:
    "The detail holds the most recent 100 events; this pages through all of them, newest first, with `limit` (1 to 100, default 50) and `offset`. Works for invoices too (the same ids). An id of another organization is 404.",
  tags,
  auth: "issuer",
  permission: "obligations:read",
  params: ZIdParams,
  query: ZPageQuery,
  success: { status: 200, description: "A page of audit entries", schema: ZAuditTrailPage, example: { items: [], limit: 50, offset: 0 } },
});

export const ACTIONS_DESCRIPTION = [
  "Issuer actions, each with `expected_version` (409 `version_conflict` when stale, nothing changed) and each bumping `version` by exactly 1:",
  "- `mark_sent`: you sent your own message with the hosted URL; OBLIGATION_CAPTURED -> PAYMENT_REQUESTED (409 `invalid_state` from any other status). Event `obligation.payment_requested`.",
  "- `revoke_link`: `link_revoked` becomes true; recipient calls with the link get 410 at once (409 `invalid_state` when already revoked). Event `obligation.link_revoked`.",
  "- `reissue_link`: a new token and `expires_at`, the old link is dead, revocation cleared; the result carries `payment_request` (409 `invalid_state` when RECONCILED). Event `obligation.link_reissued`.",
  "- `set_expected_payment_date` `{ expected_payment_date }`. Event `obligation.expected_payment_date_set`.",
  "- `post_message` `{ message }` (1 to 4000 characters), visible to the recipient. Event `obligation.message_posted`.",
  "- `waive_condition` `{ condition_id }`: the condition counts as met from today and the terms are recalculated (404 unknown condition, 409 `invalid_state` when not waiting). Event `obligation.condition_waived`.",
  '- `amend` with any of `amount_minor`, `deadline`, `debtor`, `creditor`, `label`, `business_context`, `payment_terms`: corrects the obligation while nothing is settled (`allocated_minor` "0", else 409 `invalid_state`: reverse its allocations and credits first). `payment_terms` replace the terms and are validated as at registration (conditions named by key or id among the obligation\'s own; 422 `payment_terms_mismatch`); a new `amount_minor` alone recalculates the existing terms, which must still add up (422 `payment_terms_mismatch`). Status and payment reference do not change. Event `obligation.amended` with `data.changes` `{ field: { from, to } }` for each field whose value changed.',
  '- `resolve_dispute` `{ outcome: "accepted" | "rejected", message }`: answers the payer\'s open dispute (409 `invalid_state` when none is open); `dispute.status` becomes the outcome, the message is shown to the payer. An accepted dispute that reduces what is owed needs its own credit. The `obligation.overdue` events that waited while it was open are emitted at the next sweep. Event `obligation.dispute_resolved`.',
  "The detail shows the latest `dispute` and `promise` (null when there never was one).",
  "Recipient actions (`acknowledge`, `share_dates`, `report_payment`, `dispute`, `promise_payment`) are not accepted here (422).",
].join("\n");

export const obligationActionsOp = defineOperation({
  operationId: "obligationAction",
  method: "POST",
  path: "/obligations/{id}/actions",
  summary: "Apply an issuer action",
  description: ACTIONS_DESCRIPTION,
  tags,
  auth: "issuer",
  permission: "obligations:write",
  idempotent: "required",
  params: ZIdParams,
  body: ZIssuerAction,
  bodyExample: { action: "mark_sent", expected_version: 1 },
  success: {
    status: 200,
    description: "Applied",
    schema: ZMutationResult,
    example: exampleMutationResult("obligation.payment_requested", { record: { status: "PAYMENT_REQUESTED", version: 2 } }),
  },
});

export const satisfyConditionOp = defineOperation({
  operationId: "satisfyCondition",
  method: "POST",
  path: "/obligations/{id}/conditions/{condition}/satisfy",
  summary: "Satisfy a condition (records evidence, recalculates payable terms)",
  description:
    "Marks a waiting condition satisfied on `satisfied_on` (default today, UTC) with the accepted evidence (`evidence_reference`, `source`). Terms triggered by it get `triggered_on`/`payable_on`, and `payable_minor`/`due_minor` follow. 404 when the condition is not one of this obligation's; 409 `invalid_state` when it is already satisfied or waived. Event `obligation.condition_satisfied`.",
  tags,
  auth: "issuer",
  permission: "obligations:write",
  idempotent: "required",
  params: ZObligationConditionParams,
  body: ZSatisfyCondition,
  bodyExample: { expected_version: 1, satisfied_on: "2026-11-20", evidence_reference: "ACCEPT-2026-117", source: "customer portal" },
  success: {
    status: 200,
    description: "Satisfied",
    schema: ZMutationResult,
    example: exampleMutationResult("obligation.condition_satisfied", {
      record: { version: 2, condition_status: "satisfied", condition_satisfied_on: "2026-11-20", payable_minor: "1250000" },
    }),
  },
});

export const DOCUMENT_UPLOAD_DESCRIPTION =
  "multipart/form-data with `expected_version`, optional `kind` (default `supporting`) and one `file`. The content type is sniffed from the bytes: PDF, PNG, JPEG, WebP, CSV, plain text and XML are accepted; HTML, SVG, scripts, executables and anything else are 415 `unsupported_media_type`. At most 10 MiB (`MAX_UPLOAD_BYTES`), else 413. The SHA-256 is recorded. Bumps the version; event `obligation.document_added`; the result carries `document_id`.";

export const uploadObligationDocumentOp = defineOperation({
  operationId: "uploadObligationDocument",
  method: "POST",
  path: "/obligations/{id}/documents",
  summary: "Upload a document (evidence) to an obligation",
  description: DOCUMENT_UPLOAD_DESCRIPTION,
  tags,
  auth: "issuer",
  permission: "obligations:write",
  idempotent: "required",
  params: ZIdParams,
  multipart: ZDocumentForm,
  success: {
    status: 201,
    description: "Stored",
    schema: ZMutationResult,
    example: exampleMutationResult("obligation.document_added", { documentId: "4d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a", record: { version: 2 } }),
  },
});

export const DOCUMENT_DOWNLOAD_DESCRIPTION =
  "The stored bytes as `application/octet-stream` with `Content-Disposition: attachment` (RFC 6266 quoted `filename` plus `filename*`), `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy. 404 when the document is not one of this obligation's.";

export const downloadObligationDocumentOp = defineOperation({
  operationId: "downloadObligationDocument",
  method: "GET",
  path: "/obligations/{id}/documents/{document}",
  summary: "Download a document",
  description: DOCUMENT_DOWNLOAD_DESCRIPTION,
  tags,
  auth: "issuer",
  permission: "obligations:read",
  params: ZObligationDocumentParams,
  success: ATTACHMENT_SUCCESS,
});

export const getPaymentRequestOp = defineOperation({
  operationId: "getPaymentRequest",
  method: "GET",
  path: "/obligations/{id}/payment-request",
  summary: "The hosted payment request (shows the same hosted_url again)",
  description:
    "Returns `{ id, obligation_id, hosted_url, expires_at, revoked }`. The hosted URL is a write capability (whoever holds it acts as the payer), so this needs `obligations:write`: a read-only API key gets 403 `insufficient_scope`, a viewer 403 `insufficient_permission`. The token in the URL fragment is derived from a server secret (HMAC of the request id and its issue number), so it can be shown again while a copy of the database yields no working link. A revoked request is 410 `payment_request_revoked`, an expired one 410 `payment_request_expired` (reissue it with the `reissue_link` action). `hosted_url` is a bearer capability: never log it.",
  tags,
  auth: "issuer",
  permission: "obligations:write",
  params: ZIdParams,
  success: {
    status: 200,
    description: "The payment request and the obligation's `payment_reference`",
    schema: ZPaymentRequestResource,
    example: { ...EXAMPLE_PAYMENT_REQUEST, revoked: false, payment_reference: "RF637K3M9Q2X4B" },
  },
  errors: [410],
});

const EXAMPLE_CREDIT = {
  id: "7c6b5a49-3827-4e16-a5f4-e3d2c1b0a998",
  obligation_id: OBL,
  kind: "bank_fee" as const,
  amount_minor: "1200",
  reason: "Charges deducted by the payer's bank",
  reference: "",
  document_id: null,
  created_at: "2026-11-14T08:06:00.000Z",
  reversed_at: null,
  reversal_reason: "",
};

const creditedProjection = (version: number, allocated: string, status: "PARTIALLY_RECONCILED" | "RECONCILED" | "PAYMENT_REQUESTED") =>
  exampleProjection({ allocated_minor: allocated, status, version, updated_at: "2026-11-14T08:06:00.000Z" });

export const createCreditOp = defineOperation({
  operationId: "createCredit",
  method: "POST",
  path: "/obligations/{id}/credits",
  summary: "Settle part of an obligation without money (credit note, cancellation, write-off, discount, bank fee)",
  description: [
    "A credit settles part (or all) of the obligation without a payment: `credit_note`, `cancellation` (the whole outstanding amount; `amount_minor` may be omitted and, when sent, must equal it), `write_off`, `discount` (e.g. for early payment) or `bank_fee` (charges deducted on the way). `reason` (1 to 500 characters) is kept in the history; `reference` and `document_id` (a document of this obligation) are optional.",
    "A credit counts as settled: it is part of `allocated_minor`, and the status moves as for an allocation (PARTIALLY_RECONCILED, or RECONCILED when nothing is left). The detail's `settled` splits `allocated_minor` into `by_payments_minor` and `by_credits_minor`; `credits` lists every credit. An obligation with a live `cancellation` is cancelled: its `external_reference` can be registered again.",
    "Refusals: 404 `not_found` (unknown obligation, or another organization's); 409 `version_conflict` when `expected_version` is stale; 409 `invalid_state` for a cancellation with nothing outstanding; 422 `allocation_exceeds_remaining` when `amount_minor` is above the outstanding amount; 422 `validation_failed` for a missing amount or an unknown `document_id`.",
    "201 `{ credit, obligation }` (the obligation projection after the change, `version` + 1). Event `obligation.credited` (webhook `data.obligation` and `data.credit`). Undo with POST /obligations/{id}/credits/{credit}/reverse.",
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "obligations:write",
  idempotent: "required",
  params: ZIdParams,
  body: ZCreateCredit,
  bodyExample: { expected_version: 2, kind: "bank_fee", amount_minor: "1200", reason: "Charges deducted by the payer's bank" },
  success: {
    status: 201,
    description: "Credited",
    schema: ZCreditResult,
    example: { credit: EXAMPLE_CREDIT, obligation: creditedProjection(3, "1250000", "RECONCILED") },
  },
});

export const reverseCreditOp = defineOperation({
  operationId: "reverseCredit",
  method: "POST",
  path: "/obligations/{id}/credits/{credit}/reverse",
  summary: "Reverse a credit",
  description: [
    "Undoes a wrong credit. The credit stays in `credits` with `reversed_at` and `reversal_reason`; `allocated_minor` drops by its amount and the status is the one the obligation has without it: PARTIALLY_RECONCILED while something is still settled, else PAYMENT_CLAIMED if a payment was reported, else PAYMENT_REQUESTED if the link was sent or opened, else OBLIGATION_CAPTURED. This (with the reversal of an allocation) is the one way a RECONCILED obligation moves back. Reversing a `cancellation` un-cancels the obligation.",
    "Refusals: 404 `not_found` (unknown obligation or credit, or another organization's); 409 `version_conflict` when `expected_version` (the obligation's) is stale; 409 `invalid_state` when the credit is already reversed; 409 `duplicate` when reversing a `cancellation` while the obligation's `external_reference` names another obligation that is not cancelled (registered again since; the message names it).",
    "200 `{ credit, obligation }`. Event `obligation.credit_reversed` (webhook `data.obligation` and `data.credit`).",
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "obligations:write",
  idempotent: "required",
  params: ZObligationCreditParams,
  body: ZReverseEntry,
  bodyExample: { expected_version: 3, reason: "The bank refunded its charges" },
  success: {
    status: 200,
    description: "Reversed",
    schema: ZCreditResult,
    example: {
      credit: { ...EXAMPLE_CREDIT, reversed_at: "2026-11-20T10:00:00.000Z", reversal_reason: "The bank refunded its charges" },
      obligation: creditedProjection(4, "1248800", "PARTIALLY_RECONCILED"),
    },
  },
});

export const obligationOperations = [
  registerObligationOp,
  listObligationsOp,
  getObligationOp,
  listObligationMessagesOp,
  listAuditTrailOp,
  obligationActionsOp,
  satisfyConditionOp,
  uploadObligationDocumentOp,
  downloadObligationDocumentOp,
  getPaymentRequestOp,
  createCreditOp,
  reverseCreditOp,
];
