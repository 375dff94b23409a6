import { defineOperation } from "@/lib/http/operation";
import { ZDocumentForm, ZMessagePage, ZMutationResult } from "@/lib/schemas/obligations";
import { ZPageQuery } from "@/lib/schemas/common";
import { ZRecipientAction, ZRecipientSessionExchange } from "@/lib/schemas/recipient";
import { ZAccountDocumentParams, ZAccountObligationParams, ZAccountParams, ZAccountSession, ZBasket, ZBasketInput } from "@/lib/schemas/counterparties";
import { z } from "zod";
import { ZRecipientInvoice } from "@/lib/schemas/recipient";
import { exampleMutationResult } from "@/lib/operations/obligation-examples";
import { ATTACHMENT_SUCCESS } from "@/lib/operations/responses";

// The payer's account: the recipient endpoints of an account link (docs/recipient-portal.md,
// docs/recipient-portal.md "Account link"). Cookie `fos_account_{account}`, Path
// /api/v1/recipient/accounts/{account}.
const tags = ["Recipient"];
const ACC = "7c6b5a49-3827-4165-a4b3-c2d1e0f9a8b7";
const OB = "0f8e7d6c-5b4a-4392-8170-6e5d4c3b2a19";
const RULES =
  "Every call re-checks the account link: revoked → 410 `payment_request_revoked`, expired → 410 `payment_request_expired`; an unknown or ended session, or a session of another account, is 401. An obligation that is not the account counterparty's is 404. State-changing calls need `X-Service-Request: 1` and an Idempotency-Key and are rate limited per link (`RECIPIENT_RATE_LIMIT_PER_MINUTE`).";

export const accountSessionOp = defineOperation({
  operationId: "recipientAccountSession",
  method: "POST",
  path: "/recipient/accounts/{account}/session",
  summary: "Exchange the account link's token for a session of that account",
  description: `No credential. The hosted URL \`/a/{account}#{token}\` carries the token in its fragment. An unknown token, or one of another account, is 401; a revoked link 410 \`payment_request_revoked\`, an expired one 410 \`payment_request_expired\`. On success an HttpOnly, SameSite=Strict cookie \`fos_account_{account}\` scoped to \`/api/v1/recipient/accounts/{account}\`. The Idempotency-Key is scoped to the token; a replay sets a fresh cookie while the link is usable.`,
  tags,
  auth: "none",
  requestMarker: true,
  idempotent: "required",
  params: ZAccountParams,
  body: ZRecipientSessionExchange,
  bodyExample: { token: "3q2-7wEVLMxQK0aQ8lJwYvH4c7yq3Z0m1N5bT6uR9sA" },
  success: {
    status: 200,
    description: "Session opened; the HttpOnly cookie is set",
    schema: ZAccountSession,
    example: { account_id: ACC, counterparty: { name: "Northwind Traders Ltd", email: "ap@northwind.example" } },
  },
  errors: [401, 410],
});

export const getAccountOp = defineOperation({
  operationId: "recipientAccount",
  method: "GET",
  path: "/recipient/accounts/{account}",
  summary: "The counterparty and the recipient invoice of each of its open obligations",
  description: `Every open obligation of the counterparty (also those registered after the link was made), oldest first, each as \`GET /recipient/invoice\` shows it. ${RULES}`,
  tags,
  auth: "recipient",
  recipientLink: "account",
  params: ZAccountParams,
  success: {
    status: 200,
    description: "The account",
    schema: z.strictObject({ counterparty: ZAccountSession.shape.counterparty, obligations: z.array(ZRecipientInvoice) }),
    example: { counterparty: { name: "Northwind Traders Ltd", email: "ap@northwind.example" }, obligations: [] },
  },
});

export const accountActionOp = defineOperation({
  operationId: "recipientAccountAction",
  method: "POST",
  path: "/recipient/accounts/{account}/obligations/{id}/actions",
  summary: "Apply a recipient action to one obligation of the account",
  description: `The recipient's ActionInput, as \`POST /recipient/actions\`. ${RULES}`,
  tags,
  auth: "recipient",
  recipientLink: "account",
  requestMarker: true,
  idempotent: "required",
  params: ZAccountObligationParams,
  body: ZRecipientAction,
  bodyExample: { action: "acknowledge", expected_version: 2 },
  success: {
    status: 200,
    description: "Applied",
    schema: ZMutationResult,
    example: exampleMutationResult("obligation.acknowledged", { record: { version: 3 } }),
  },
});

export const accountUploadDocumentOp = defineOperation({
  operationId: "recipientAccountUploadDocument",
  method: "POST",
  path: "/recipient/accounts/{account}/obligations/{id}/documents",
  summary: "Upload evidence to one obligation of the account",
  description: `As \`POST /recipient/documents\`. ${RULES}`,
  tags,
  auth: "recipient",
  recipientLink: "account",
  requestMarker: true,
  idempotent: "required",
  params: ZAccountObligationParams,
  multipart: ZDocumentForm,
  success: {
    status: 201,
    description: "Stored",
    schema: ZMutationResult,
    example: exampleMutationResult("obligation.document_added", { documentId: "4d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a", record: { version: 3 } }),
  },
});

export const accountDownloadDocumentOp = defineOperation({
  operationId: "recipientAccountDownloadDocument",
  method: "GET",
  path: "/recipient/accounts/{account}/obligations/{id}/documents/{document}",
  summary: "Download a document of one obligation of the account",
  description: `As \`GET /recipient/documents/{document}\`: only documents the recipient may see; any other id is 404. ${RULES}`,
  tags,
  auth: "recipient",
  recipientLink: "account",
  params: ZAccountDocumentParams,
  success: ATTACHMENT_SUCCESS,
});

export const accountMessagesOp = defineOperation({
  operationId: "recipientAccountMessages",
  method: "GET",
  path: "/recipient/accounts/{account}/obligations/{id}/messages",
  summary: "The message thread of one obligation of the account, newest first, a page at a time",
  description: `As \`GET /recipient/messages\`: each recipient invoice of the account holds its thread's most recent 100 messages (\`messages_total\` says how many there are); this pages through all of them, newest first, with \`limit\` (1 to 100, default 50) and \`offset\`. ${RULES}`,
  tags,
  auth: "recipient",
  recipientLink: "account",
  params: ZAccountObligationParams,
  query: ZPageQuery,
  success: { status: 200, description: "A page of messages", schema: ZMessagePage, example: { items: [], limit: 50, offset: 0 } },
});

export const createBasketOp = defineOperation({
  operationId: "recipientCreateBasket",
  method: "POST",
  path: "/recipient/accounts/{account}/baskets",
  summary: "One transfer for several obligations: a basket with its own payment reference",
  description: `Obligations of the account in one currency (else 422), each with an amount: by default what is due now, else the outstanding amount; at most the outstanding amount (else 422). The basket gets a new ISO 11649 reference; an incoming payment whose remittance holds it is allocated automatically across the items in order, each up to its item amount and its outstanding amount (a smaller payment fills items in order, a larger one leaves the rest unallocated). Event \`basket.created\`. ${RULES}`,
  tags,
  auth: "recipient",
  recipientLink: "account",
  requestMarker: true,
  idempotent: "required",
  params: ZAccountParams,
  body: ZBasketInput,
  bodyExample: { items: [{ obligation_id: OB }, { obligation_id: "1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d", amount_minor: "50000" }] },
  success: {
    status: 201,
    description: "The basket",
    schema: ZBasket,
    example: {
      id: "2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b",
      payment_reference: "RF47BSK7K3M9Q2X4B5C6D",
      amount_minor: "425000",
      currency: "EUR",
      items: [
        { obligation_id: OB, amount_minor: "375000" },
        { obligation_id: "1a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d", amount_minor: "50000" },
      ],
    },
  },
});

export const recipientAccountOperations = [
  accountSessionOp,
  getAccountOp,
  accountActionOp,
  accountUploadDocumentOp,
  accountDownloadDocumentOp,
  accountMessagesOp,
  createBasketOp,
];
