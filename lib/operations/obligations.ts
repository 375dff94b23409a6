import { defineOperation } from "@/lib/http/operation";
import { ZIdParams } from "@/lib/schemas/common";
import {
  ZDocumentForm,
  ZIssuerAction,
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
    "The obligation projection plus `audit_trail` (every event, oldest first: who, what, when), `documents`, `messages` and the `payment_request` view. An id of another organization is 404.",
  tags,
  auth: "issuer",
  permission: "obligations:read",
  params: ZIdParams,
  success: { status: 200, description: "The obligation", schema: ZObligationDetail, example: exampleObligationDetail() },
});

export const ACTIONS_DESCRIPTION = [
  "Issuer actions, each with `expected_version` (409 `version_conflict` when stale, nothing changed) and each bumping `version` by exactly 1:",
  "- `mark_sent`: you sent your own message with the hosted URL; OBLIGATION_CAPTURED -> PAYMENT_REQUESTED (409 `invalid_state` from any other status). Event `obligation.payment_requested`.",
  "- `revoke_link`: `link_revoked` becomes true; recipient calls with the link get 410 at once (409 `invalid_state` when already revoked). Event `obligation.link_revoked`.",
  "- `reissue_link`: a new token and `expires_at`, the old link is dead, revocation cleared; the result carries `payment_request` (409 `invalid_state` when RECONCILED). Event `obligation.link_reissued`.",
  "- `set_expected_payment_date` `{ expected_payment_date }`. Event `obligation.expected_payment_date_set`.",
  "- `post_message` `{ message }` (1 to 4000 characters), visible to the recipient. Event `obligation.message_posted`.",
  "- `waive_condition` `{ condition_id }`: the condition counts as met from today and the terms are recalculated (404 unknown condition, 409 `invalid_state` when not waiting). Event `obligation.condition_waived`.",
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
    "Returns `{ id, obligation_id, hosted_url, expires_at, revoked }`. The token in the URL fragment is derived from a server secret (HMAC of the request id and its issue number), so it can be shown again while a copy of the database yields no working link. A revoked request is 410 `payment_request_revoked`, an expired one 410 `payment_request_expired` (reissue it with the `reissue_link` action). `hosted_url` is a bearer capability: never log it.",
  tags,
  auth: "issuer",
  permission: "obligations:read",
  params: ZIdParams,
  success: {
    status: 200,
    description: "The payment request and the obligation's `payment_reference`",
    schema: ZPaymentRequestResource,
    example: { ...EXAMPLE_PAYMENT_REQUEST, revoked: false, payment_reference: "RF637K3M9Q2X4B" },
  },
  errors: [410],
});

export const obligationOperations = [
  registerObligationOp,
  listObligationsOp,
  getObligationOp,
  obligationActionsOp,
  satisfyConditionOp,
  uploadObligationDocumentOp,
  downloadObligationDocumentOp,
  getPaymentRequestOp,
];
