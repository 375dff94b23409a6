import { handle } from "@/lib/http/handle";
import { createWebhookEndpointOp, listWebhookEndpointsOp } from "@/lib/operations/webhooks";
import { checkWebhookDestination, createWebhookEndpoint } from "@/lib/webhooks/create-endpoint";
import type { TWebhookEndpointInput } from "@/lib/schemas/webhooks";
import { listWebhookEndpoints } from "@/lib/webhooks/list-endpoints";
import { notServed } from "@/lib/http/not-served";

// POST /webhook-endpoints – register a signed destination
export const POST = handle(
  createWebhookEndpointOp,
  async ({ tx, principal, body }) => ({ status: 201, body: await createWebhookEndpoint(tx, { organizationId: principal.organizationId, body }) }),
  { beforeTransaction: (body) => checkWebhookDestination(body as TWebhookEndpointInput) },
);

// GET /webhook-endpoints – endpoints with delivery health
export const GET = handle(listWebhookEndpointsOp, async ({ tx, principal }) => ({
  status: 200,
  body: { items: await listWebhookEndpoints(tx, { organizationId: principal.organizationId }) },
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { PUT, PATCH, DELETE } = notServed("GET", "POST");
