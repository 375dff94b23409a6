import { defineOperation } from "@/lib/http/operation";
import { ZIdParams } from "@/lib/schemas/common";
import {
  ZBusinessContext,
  ZBusinessContextDetail,
  ZBusinessContextList,
  ZContextRelationship,
  ZCreateBusinessContext,
  ZCreateContextRelationship,
  ZCreateObligationContextLink,
  ZListBusinessContextsQuery,
  ZObligationContextLink,
} from "@/lib/schemas/contexts";

const tags = ["Business contexts"];

export const listBusinessContextsOp = defineOperation({
  operationId: "listBusinessContexts",
  method: "GET",
  path: "/business-contexts",
  summary: "List business contexts",
  description:
    "Newest first (ties broken by id, so paging is stable). Filters combine with AND; an empty value means no filter. " +
    "`context_type` is a deprecated compatibility filter on `type` that is still honoured; prefer `context_kind`. " +
    "`search` is a case-insensitive substring match on `name` or `reference` (`%` and `_` match themselves).",
  tags,
  auth: "issuer",
  permission: "contexts:read",
  query: ZListBusinessContextsQuery,
  success: { status: 200, description: "A page of business contexts", schema: ZBusinessContextList },
});

export const createBusinessContextOp = defineOperation({
  operationId: "createBusinessContext",
  method: "POST",
  path: "/business-contexts",
  summary: "Create a business context",
  description:
    "A company, project, order, invoice or external object. `kind` defaults from `type` (company -> `company`, " +
    "project -> `group`, order/invoice/external_object -> `reference`); `type_label` defaults to the type's label " +
    '(`Company`, `Project`, `Order`, `Invoice`, `External object`). Unset strings are `""`; an unset ' +
    "`external_reference` is `null`.",
  tags,
  auth: "issuer",
  permission: "contexts:write",
  idempotent: "required",
  body: ZCreateBusinessContext,
  bodyExample: { type: "project", name: "Harbour renovation", reference: "PRJ-2026-014" },
  success: { status: 201, description: "The business context", schema: ZBusinessContext },
});

export const getBusinessContextOp = defineOperation({
  operationId: "getBusinessContext",
  method: "GET",
  path: "/business-contexts/{id}",
  summary: "A business context with its relationships and related obligations",
  description:
    "Relationships are listed in both directions (`direction` `outgoing` or `incoming`) with a summary of the related " +
    "context; only direct relationships are returned (no graph walk), so cycles are harmless. `obligations` are the " +
    "obligations linked to this context; `totals` sums every linked obligation by currency and status.",
  tags,
  auth: "issuer",
  permission: "contexts:read",
  params: ZIdParams,
  success: { status: 200, description: "The context detail", schema: ZBusinessContextDetail },
});

export const createContextRelationshipOp = defineOperation({
  operationId: "createContextRelationship",
  method: "POST",
  path: "/business-contexts/{id}/relationships",
  summary: "Relate a business context to another",
  description:
    "Relates the path's context (source) to `related_context_id` (target) of the same organization. There is no fixed " +
    "hierarchy: any context may be related to any other, and cycles are allowed. An unknown or foreign path id is 404; " +
    "an unknown or foreign `related_context_id`, or the context itself, is 422 `validation_failed` naming " +
    "`body.related_context_id`. The same source, target and `relationship_type` twice is 409 `duplicate`.",
  tags,
  auth: "issuer",
  permission: "contexts:write",
  idempotent: "required",
  params: ZIdParams,
  body: ZCreateContextRelationship,
  bodyExample: { related_context_id: "0b9f6c39-5f8e-4c57-9a61-4f1c3b0c2e11", relationship_type: "belongs_to" },
  success: { status: 201, description: "The relationship", schema: ZContextRelationship },
  errors: [409],
});

export const linkObligationContextOp = defineOperation({
  operationId: "linkObligationContext",
  method: "POST",
  path: "/obligations/{id}/business-contexts",
  summary: "Attach a business context to an obligation",
  description:
    "Relates a business context (a presentation context or a supporting reference) to the obligation. An obligation " +
    "mutation: `expected_version` must be the current version (else 409 `version_conflict`, nothing changes); on " +
    "success `version` increases by exactly 1 and event `obligation.context_linked` is recorded. `relationship_type` " +
    "defaults to `related`. `attributed_minor` (optional) is the part of the obligation attributed to the context, in " +
    "the obligation's currency; the attributed amounts of one obligation never exceed its `amount_minor`, also under " +
    "concurrent requests (422 `validation_failed` naming `body.attributed_minor`). An unknown or foreign obligation is " +
    "404; an unknown or foreign `context_id` is 422 `validation_failed` naming `body.context_id`; a context already " +
    "linked to the obligation is 409 `duplicate`. The response is the link with the context entry as it now appears " +
    "in the obligation's `contexts`, the updated obligation projection and its new `version`.",
  tags: ["Obligations", ...tags],
  auth: "issuer",
  permission: "obligations:write",
  idempotent: "required",
  params: ZIdParams,
  body: ZCreateObligationContextLink,
  bodyExample: { context_id: "0b9f6c39-5f8e-4c57-9a61-4f1c3b0c2e11", relationship_type: "project", attributed_minor: "50000", expected_version: 1 },
  success: { status: 201, description: "The obligation-context link", schema: ZObligationContextLink },
  errors: [409],
});

export const contextOperations = [listBusinessContextsOp, createBusinessContextOp, getBusinessContextOp, createContextRelationshipOp, linkObligationContextOp];
