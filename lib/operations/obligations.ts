import { defineOperation } from "@/lib/http/operation";
import { ZIdParams, ZPageQuery } from "@/lib/schemas/common";
import { ZMutationResult, ZObligationDetail, ZObligationList, ZRegisterObligation } from "@/lib/schemas/obligations";
import { EXAMPLE_REGISTER, exampleMutationResult, exampleObligationDetail, exampleObligationList } from "@/lib/operations/obligation-examples";

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
  success: { status: 201, description: "Registered", schema: ZMutationResult, example: exampleMutationResult("obligation.registered", { withPaymentRequest: true }) },
});

export const listObligationsOp = defineOperation({
  operationId: "listObligations",
  method: "GET",
  path: "/obligations",
  summary: "List obligations (newest first)",
  description: "Items are obligation projections ordered by created_at, then id, both descending (stable across pages). `payable_minor` and `due_minor` are recalculated on every read.",
  tags,
  auth: "issuer",
  permission: "obligations:read",
  query: ZPageQuery,
  success: { status: 200, description: "A page of obligations", schema: ZObligationList, example: exampleObligationList() },
});

export const getObligationOp = defineOperation({
  operationId: "getObligation",
  method: "GET",
  path: "/obligations/{id}",
  summary: "Obligation detail with audit trail",
  description: "The obligation projection plus `audit_trail` (every event, oldest first: who, what, when), `documents`, `messages` and the `payment_request` view. An id of another organization is 404.",
  tags,
  auth: "issuer",
  permission: "obligations:read",
  params: ZIdParams,
  success: { status: 200, description: "The obligation", schema: ZObligationDetail, example: exampleObligationDetail() },
});

export const obligationOperations = [registerObligationOp, listObligationsOp, getObligationOp];
