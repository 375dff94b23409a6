import { defineOperation } from "@/lib/http/operation";
import {
  ZCronSummary,
  ZDeliveryIdParams,
  ZEndpointIdParams,
  ZWebhookEndpoint,
  ZWebhookEndpointUpdate,
  ZWebhookTestSent,
  ZWebhookDeliveryList,
  ZWebhookEndpointCreated,
  ZWebhookEndpointInput,
  ZWebhookEndpointList,
} from "@/lib/schemas/webhooks";

const tags = ["Webhooks"];

export const WEBHOOK_DELIVERY_DOC = `Each event is POSTed as JSON \`{id, type, created_at, organization_id, data}\` (\`data.obligation\` is the obligation projection; payment events also carry \`data.payment\`) to every endpoint that was enabled when the event happened and whose \`event_types\` (empty = all) include its type. Standard Webhooks headers: \`webhook-id\` (the event id, the same on every attempt), \`webhook-timestamp\` (Unix seconds of the attempt), \`webhook-signature: v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">\` keyed with the UTF-8 bytes of the secret (a Standard Webhooks library verifies it when given the secret's bytes base64-encoded); for 24 hours after a secret rotation it carries two signatures, space-separated, the new secret's first. A 2xx within 10 s (WEBHOOK_TIMEOUT_MS) is success; redirects are not followed (a 3xx is a failure); 410 Gone disables the endpoint and fails what is queued for it, and so does failing every attempt for 5 days (event \`webhook_endpoint.disabled\`); \`Retry-After\` (seconds or HTTP date, at most one day) postpones the next attempt. Attempts follow WEBHOOK_RETRY_SCHEDULE, seconds after the event (default 0, 5, 300, 1800, 7200, 18000, 36000, 36000; attempt k is due at created_at + schedule[k] or later); after the last one the delivery is \`failed\`. Delivery is at least once: a consumer de-duplicates by \`webhook-id\` and drops stale updates by \`data.obligation.version\`.`;

export const createWebhookEndpointOp = defineOperation({
  operationId: "createWebhookEndpoint",
  method: "POST",
  path: "/webhook-endpoints",
  summary: "Register a signed webhook destination",
  description: `Registers a destination for future events. \`url\` must be http or https without credentials; every A/AAAA record of its host must be a public address (loopback, private, link-local, metadata, unique-local, unspecified, multicast and reserved addresses are refused with 422 \`validation_failed\` naming \`body.url\`) unless the server runs with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true. A host that does not resolve at registration is accepted: every delivery resolves and checks again and connects only to the checked address. The secret is stored encrypted and never returned.\n\n${WEBHOOK_DELIVERY_DOC}`,
  tags,
  auth: "issuer",
  permission: "webhooks:write",
  idempotent: "required",
  body: ZWebhookEndpointInput,
  bodyExample: {
    url: "https://hooks.example.com/fos",
    secret: "whsec-0123456789abcdef0123456789abcdef",
    event_types: ["obligation.overdue", "payment.allocated"],
  },
  success: {
    status: 201,
    description: "Registered",
    schema: ZWebhookEndpointCreated,
    example: { id: "6f1c2a9e-3b7d-4e8f-9a0b-1c2d3e4f5a6b", url: "https://hooks.example.com/fos" },
  },
});

const endpointExample = {
  id: "6f1c2a9e-3b7d-4e8f-9a0b-1c2d3e4f5a6b",
  url: "https://hooks.example.com/fos",
  enabled: true,
  disabled_reason: "",
  created_at: "2026-11-20T09:00:00.000Z",
  last_success_at: "2026-11-22T10:00:00.000Z",
  last_failure_at: "",
  consecutive_failures: 0,
  event_types: ["obligation.overdue", "payment.allocated"],
  failing_since: "",
  previous_secret_until: "2026-11-23T10:15:00.000Z",
};

export const updateWebhookEndpointOp = defineOperation({
  operationId: "updateWebhookEndpoint",
  method: "PATCH",
  path: "/webhook-endpoints/{id}",
  summary: "Change, disable, enable or re-key a webhook endpoint",
  description:
    'Any of `url` (checked like at registration: a private or loopback destination is 422 `validation_failed` unless the server runs with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true), `enabled` (false: no new deliveries, and what is queued fails with `last_error` "endpoint disabled"; true: deliveries resume, the failure count and `disabled_reason` are cleared), `event_types` (the types it receives; empty = every type) and `secret` (a new signing secret: for 24 hours every delivery carries both signatures, space-separated in `webhook-signature`, the new secret\'s first; `previous_secret_until` says until when). Applies to events that happen after the change. An unknown, deleted or foreign id is 404 `not_found`.',
  tags,
  auth: "issuer",
  permission: "webhooks:write",
  params: ZEndpointIdParams,
  body: ZWebhookEndpointUpdate,
  bodyExample: { event_types: ["obligation.overdue", "payment.allocated"], secret: "whsec-new-0123456789abcdef0123456789ab" },
  success: { status: 200, description: "The endpoint after the change", schema: ZWebhookEndpoint, example: endpointExample },
  errors: [404],
});

export const deleteWebhookEndpointOp = defineOperation({
  operationId: "deleteWebhookEndpoint",
  method: "DELETE",
  path: "/webhook-endpoints/{id}",
  summary: "Delete a webhook endpoint; its pending deliveries are cancelled",
  description:
    'The endpoint receives nothing more and leaves the endpoint list. Its pending deliveries become `failed` with `last_error` "cancelled: endpoint deleted" (and cannot be retried: 404); its past deliveries stay in GET /webhook-deliveries. An unknown, already deleted or foreign id is 404 `not_found`.',
  tags,
  auth: "issuer",
  permission: "webhooks:write",
  params: ZEndpointIdParams,
  success: { status: 204, description: "Deleted" },
  errors: [404],
});

export const testWebhookEndpointOp = defineOperation({
  operationId: "testWebhookEndpoint",
  method: "POST",
  path: "/webhook-endpoints/{id}/test",
  summary: "Send a test event to one endpoint",
  description:
    "Queues a `webhook.test` event (`data: { test: true, webhook_endpoint }`) for this endpoint only, also when it is disabled (to check a receiver before enabling it again); it is signed, delivered and retried like any event, and listed in GET /webhook-deliveries. No request body. An unknown, deleted or foreign id is 404 `not_found`.",
  tags,
  auth: "issuer",
  permission: "webhooks:write",
  idempotent: "optional",
  params: ZEndpointIdParams,
  success: {
    status: 202,
    description: "Queued",
    schema: ZWebhookTestSent,
    example: { event_id: "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e", delivery_id: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f" },
  },
  errors: [404],
});

export const listWebhookEndpointsOp = defineOperation({
  operationId: "listWebhookEndpoints",
  method: "GET",
  path: "/webhook-endpoints",
  summary: "Webhook endpoints with their delivery health",
  description:
    'Every endpoint of the organization (not the deleted ones), newest first: configuration (`url`, `enabled`, `disabled_reason`, `event_types`, `previous_secret_until`) and health (`last_success_at`, `last_failure_at`, `consecutive_failures`, `failing_since`; timestamps are "" when not set). Never the secret.',
  tags,
  auth: "issuer",
  permission: "webhooks:read",
  success: { status: 200, description: "The endpoints", schema: ZWebhookEndpointList, example: { items: [endpointExample] } },
});

export const listWebhookDeliveriesOp = defineOperation({
  operationId: "listWebhookDeliveries",
  method: "GET",
  path: "/webhook-deliveries",
  summary: "The 100 most recent webhook deliveries",
  description: `Up to 100 deliveries (one per event and endpoint), newest first, with status (\`pending\`, \`succeeded\`, \`failed\`), attempt count, next attempt ("" unless pending), last attempt, \`last_response_status\` (integer, or null when no HTTP response was received) and \`last_error\`.\n\n${WEBHOOK_DELIVERY_DOC}`,
  tags,
  auth: "issuer",
  permission: "webhooks:read",
  success: { status: 200, description: "The deliveries", schema: ZWebhookDeliveryList },
});

export const retryWebhookDeliveryOp = defineOperation({
  operationId: "retryWebhookDelivery",
  method: "POST",
  path: "/webhook-deliveries/{id}/retry",
  summary: "Requeue a failed delivery for one more attempt",
  description:
    "Only a `failed` delivery can be retried (else 409 `delivery_not_failed`); it becomes `pending`, due now, for one more attempt (sent even if a 410 disabled its endpoint). An unknown id or a delivery of another organization is 404 `not_found`. Send a new Idempotency-Key for each retry; replaying an accepted retry key is a no-op 204 for as long as the delivery exists, also after later retry cycles and after the idempotency retention. No request body.",
  tags,
  auth: "issuer",
  permission: "webhooks:write",
  idempotent: "required",
  params: ZDeliveryIdParams,
  success: { status: 204, description: "Requeued (or an accepted retry key replayed: nothing changes)" },
});

export const cronWebhooksOp = defineOperation({
  operationId: "cronFlushWebhooks",
  method: "GET",
  path: "/cron/webhooks",
  summary: "Flush due webhook deliveries (for a scheduler)",
  description:
    "For a scheduler such as Vercel Cron: `Authorization: Bearer $CRON_SECRET`. Claims due deliveries with `FOR UPDATE SKIP LOCKED` and a short lease, exactly as the in-process worker does (WEBHOOK_WORKER, WEBHOOK_WORKER_INTERVAL_MS), so overlapping calls and any number of instances never send one attempt twice. Answers 404 `not_found` while CRON_SECRET is not configured and 401 `unauthenticated` for a missing or wrong secret. Works for at most about 20 s, then returns what it did.",
  tags: ["System"],
  auth: "cron",
  success: { status: 200, description: "What this flush did", schema: ZCronSummary },
  errors: [401, 404],
});

export const webhookOperations = [
  createWebhookEndpointOp,
  listWebhookEndpointsOp,
  updateWebhookEndpointOp,
  deleteWebhookEndpointOp,
  testWebhookEndpointOp,
  listWebhookDeliveriesOp,
  retryWebhookDeliveryOp,
  cronWebhooksOp,
];
