import type { z } from "zod";
import { defineOperation, type Operation } from "@/lib/http/operation";
import { ZDocumentForm, ZMessagePage, ZMutationResult } from "@/lib/schemas/obligations";
import { ZPageQuery } from "@/lib/schemas/common";
import {
  ZRecipientAction,
  ZRecipientContextDocumentParams,
  ZRecipientContextParams,
  ZRecipientDocumentParams,
  ZRecipientInvoice,
  ZRecipientSession,
  ZRecipientSessionExchange,
} from "@/lib/schemas/recipient";
import { DOCUMENT_DOWNLOAD_DESCRIPTION, DOCUMENT_UPLOAD_DESCRIPTION } from "@/lib/operations/obligations";
import { EXAMPLE_PAYMENT_INSTRUCTIONS } from "@/lib/operations/payment-instructions";
import { EXAMPLE_PAYMENT_REQUEST, REQ, exampleInvoiceRecord, exampleMutationResult } from "@/lib/operations/obligation-examples";
import { ATTACHMENT_SUCCESS } from "@/lib/operations/responses";

// The recipient (secure-link holder) endpoints in their two families with the same
// behaviour: single-link under /recipient and request-scoped under
// /recipient/contexts/{request}. Each declaration below is made once and expanded into both.
const tags = ["Recipient"];

const FAMILIES = [
  "Two path families behave the same: the single-link family under `/recipient` (cookie `fos_recipient`, `Path=/api/v1/recipient`: one link per browser) and the request-scoped family under `/recipient/contexts/{request}` (cookie `fos_recipient_{request}`, `Path=/api/v1/recipient/contexts/{request}`), whose cookies of two different links in one browser never interfere. The hosted page uses the request-scoped family.",
].join("");

const SESSION_RULES = [
  "Every recipient call re-checks the hosted payment request: once it is revoked every session of it gets 410 `payment_request_revoked`, once past `expires_at` 410 `payment_request_expired`. A reissued link (`reissue_link`) ends the sessions of the old one: they get 401 `unauthenticated` (open the new link). An unknown or expired session is 401.",
].join("");

type Spec = Omit<Operation, "path" | "params" | "operationId"> & {
  name: string; // operationId of the single-link family; the request-scoped one is "recipientContext..."
  subpath: string; // e.g. "/invoice"
};

type Expanded<S extends Spec, P> = Omit<S, "name" | "subpath"> & { operationId: string; path: string; params: P };

function both<S extends Spec, P1 extends z.ZodObject | undefined = undefined, P2 extends z.ZodObject = typeof ZRecipientContextParams>(
  spec: S,
  params: { single?: P1; context?: P2 } = {},
) {
  const { name, subpath, ...rest } = spec;
  const link = (family: "single" | "context") => (rest.auth === "recipient" ? { recipientLink: family } : {});
  const single = { ...rest, ...link("single"), operationId: name, path: `/recipient${subpath}`, params: params.single } as Expanded<S, P1>;
  const context = {
    ...rest,
    ...link("context"),
    operationId: name.replace(/^recipient/, "recipientContext"),
    path: `/recipient/contexts/{request}${subpath}`,
    params: params.context ?? ZRecipientContextParams,
  } as Expanded<S, P2>;
  return [defineOperation(single), defineOperation(context)] as const;
}

export const [recipientSessionOp, recipientContextSessionOp] = both({
  name: "recipientSession",
  subpath: "/session",
  method: "POST",
  summary: "Exchange the link token for a recipient session (records the link open)",
  description: [
    "No credential. The hosted URL `/r/{request}#{token}` carries the token in its fragment; the page posts it here as `token`. Needs `X-Service-Request: 1` (else 403 `request_marker_required`) and an Idempotency-Key.",
    "An unknown token is 401 `unauthenticated`; in the request-scoped family the token must also belong to `{request}` (else 401, without saying why). A revoked link is 410 `payment_request_revoked`, an expired one 410 `payment_request_expired`.",
    "On success: a recipient session (stored as a SHA-256 hash only, tied to the link's current issue) and its HttpOnly, SameSite=Strict cookie (Secure over https, `Max-Age` = `RECIPIENT_SESSION_TTL_HOURS`, default 12 h), event `obligation.link_opened` (version + 1; OBLIGATION_CAPTURED moves to PAYMENT_REQUESTED; the first open is remembered on the payment request).",
    "Idempotency: the key is scoped to the token. A replay returns the stored body (which never holds the cookie) and sets a fresh session cookie while the link is still usable, recording no second open.",
    FAMILIES,
  ].join("\n\n"),
  tags,
  auth: "none",
  requestMarker: true,
  idempotent: "required",
  body: ZRecipientSessionExchange,
  bodyExample: { token: "3q2-7wEVLMxQK0aQ8lJwYvH4c7yq3Z0m1N5bT6uR9sA" },
  success: {
    status: 200,
    description: "Session opened; the HttpOnly session cookie is set",
    schema: ZRecipientSession,
    example: { invoice_id: EXAMPLE_PAYMENT_REQUEST.obligation_id, request_id: REQ },
    headers: {
      "Set-Cookie": {
        description: "`fos_recipient=...` or `fos_recipient_{request}=...`; HttpOnly; SameSite=Strict; Path scoped to the family",
        schema: { type: "string" },
      },
    },
  },
  errors: [401, 410],
});

export const [recipientInvoiceOp, recipientContextInvoiceOp] = both({
  name: "recipientInvoice",
  subpath: "/invoice",
  method: "GET",
  summary: "The invoice detail of the one obligation the link grants",
  description: [
    "The invoice record (with `issuer_name`, conditions, `payment_terms` with their `payable_on`, `payable_minor` and `due_minor` recalculated today) plus `request_id`, the `documents` the recipient may see and the message thread.",
    "Issuer-only and never shown here: the audit trail, payments and allocations, other obligations, the hosted URL, and issuer `bank_observation` documents.",
    SESSION_RULES,
    FAMILIES,
  ].join("\n\n"),
  tags,
  auth: "recipient",
  success: {
    status: 200,
    description: "The invoice detail",
    schema: ZRecipientInvoice,
    example: {
      ...exampleInvoiceRecord({ status: "PAYMENT_REQUESTED", version: 2 }),
      request_id: REQ,
      payment_reference: "RF637K3M9Q2X4B",
      payment_instructions: EXAMPLE_PAYMENT_INSTRUCTIONS,
      documents: [],
      messages: [],
      messages_total: 0,
      dispute: null,
      promise: { date: "2026-12-15", amount_minor: "875000", status: "open", made_at: "2026-11-28T09:12:00.000Z", decided_at: null },
    },
  },
});

export const [recipientMessagesOp, recipientContextMessagesOp] = both({
  name: "recipientMessages",
  subpath: "/messages",
  method: "GET",
  summary: "The whole message thread, newest first, a page at a time",
  description: [
    "The invoice detail holds the thread's most recent 100 messages (`messages_total` says how many there are); this pages through all of them, newest first, with `limit` (1 to 100, default 50) and `offset`.",
    SESSION_RULES,
  ].join("\n\n"),
  tags,
  auth: "recipient",
  query: ZPageQuery,
  success: { status: 200, description: "A page of messages", schema: ZMessagePage, example: { items: [], limit: 50, offset: 0 } },
});

export const [recipientActionsOp, recipientContextActionsOp] = both({
  name: "recipientAction",
  subpath: "/actions",
  method: "POST",
  summary: "Apply a recipient action (acknowledge, share dates, report payment, post a message, dispute, promise to pay)",
  description: [
    "Needs `X-Service-Request: 1` and an Idempotency-Key (keys are scoped per hosted request). Each action takes `expected_version` (409 `version_conflict` when stale, nothing changed) and bumps `version` by exactly 1:",
    "- `acknowledge`: `acknowledged` becomes true (409 `invalid_state` when already acknowledged). Event `obligation.acknowledged`.",
    "- `share_dates` `{ expected_payment_date }`. Event `obligation.dates_shared`.",
    "- `report_payment` `{ reported_payment_date, amount_minor?, reference?, note? }`: status PAYMENT_CLAIMED unless already PARTIALLY_RECONCILED or RECONCILED; it settles nothing. Event `obligation.payment_reported`.",
    "- `post_message` `{ message }` (1 to 4000 characters), seen by the issuer. Event `obligation.message_posted`.",
    '- `dispute` `{ reason, message, amount_minor? }` (`reason`: `not_received`, `wrong_amount`, `already_paid`, `quality`, `other`; `amount_minor` at most the obligation\'s amount, else 422): the obligation carries `dispute` `{ status: "open", reason, message, opened_at, ... }` until the issuer resolves it (`resolve_dispute`); 409 `invalid_state` while one is open. While it is open, `obligation.overdue` events wait. Event `obligation.disputed`.',
    '- `promise_payment` `{ date, amount_minor? }`: `date` today (UTC) or later and at most 180 days ahead (else 422 `validation_failed`); `amount_minor` defaults to what is outstanding and may not exceed it (422); 409 `invalid_state` when nothing is outstanding. The obligation carries `promise` `{ date, amount_minor, status: "open", ... }` (a new promise replaces an open one). The scheduler\'s sweep tells `promise.kept` once the settled amount has grown by the promised amount, else `promise.broken` at the first sweep after `date` + 3 days. Event `obligation.payment_promised`.',
    "Reported payments, messages, disputes, promises and uploads appear in the issuer's inbox (GET /inbox).",
    "Issuer actions (`mark_sent`, `revoke_link`, ...) are not accepted here (422).",
    SESSION_RULES,
  ].join("\n"),
  tags,
  auth: "recipient",
  requestMarker: true,
  idempotent: "required",
  body: ZRecipientAction,
  bodyExample: { action: "report_payment", expected_version: 2, reported_payment_date: "2026-11-20", amount_minor: "375000", reference: "NW-TRF-88121" },
  success: {
    status: 200,
    description: "Applied",
    schema: ZMutationResult,
    example: exampleMutationResult("obligation.payment_reported", { record: { status: "PAYMENT_CLAIMED", version: 3, reported_payment_date: "2026-11-20" } }),
  },
});

export const [recipientUploadDocumentOp, recipientContextUploadDocumentOp] = both({
  name: "recipientUploadDocument",
  subpath: "/documents",
  method: "POST",
  summary: "Upload evidence (e.g. proof of payment)",
  description: [
    "Needs `X-Service-Request: 1` and an Idempotency-Key.",
    DOCUMENT_UPLOAD_DESCRIPTION,
    "The document is recorded with `uploaded_by` `recipient`.",
    SESSION_RULES,
  ].join("\n\n"),
  tags,
  auth: "recipient",
  requestMarker: true,
  idempotent: "required",
  multipart: ZDocumentForm,
  success: {
    status: 201,
    description: "Stored",
    schema: ZMutationResult,
    example: exampleMutationResult("obligation.document_added", { documentId: "4d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a", record: { version: 3 } }),
  },
});

export const [recipientDownloadDocumentOp, recipientContextDownloadDocumentOp] = both(
  {
    name: "recipientDownloadDocument",
    subpath: "/documents/{document}",
    method: "GET",
    summary: "Download a document of the obligation",
    description: [
      DOCUMENT_DOWNLOAD_DESCRIPTION,
      "Only documents the recipient may see (see the invoice detail) are served; any other id is 404.",
      SESSION_RULES,
    ].join("\n\n"),
    tags,
    auth: "recipient",
    success: ATTACHMENT_SUCCESS,
  },
  { single: ZRecipientDocumentParams, context: ZRecipientContextDocumentParams },
);

export const recipientOperations = [
  recipientSessionOp,
  recipientContextSessionOp,
  recipientInvoiceOp,
  recipientContextInvoiceOp,
  recipientMessagesOp,
  recipientContextMessagesOp,
  recipientActionsOp,
  recipientContextActionsOp,
  recipientUploadDocumentOp,
  recipientContextUploadDocumentOp,
  recipientDownloadDocumentOp,
  recipientContextDownloadDocumentOp,
];
