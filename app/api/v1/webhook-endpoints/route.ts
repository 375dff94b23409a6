import { handle } from "@/lib/http/handle";
import { createWebhookEndpointOp, listWebhookEndpointsOp } from "@/lib/operations/webhooks";
import { createWebhookEndpoint } from "@/lib/webhooks/create-endpoint";
import { listWebhookEndpoints } from "@/lib/webhooks/list-endpoints";

// POST /webhook-endpoints – register a signed destination
export const POST = handle(createWebhookEndpointOp, async ({ tx, principal, body }) => ({
  status: 201,
  body: await createWebhookEndpoint(tx, principal.organizationId, body),
}));

// GET /webhook-endpoints – endpoints with delivery health
export const GET = handle(listWebhookEndpointsOp, async ({ tx, principal }) => ({
  status: 200,
  body: { items: await listWebhookEndpoints(tx, principal.organizationId) },
}));
