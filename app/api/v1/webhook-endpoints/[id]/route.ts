import { handle } from "@/lib/http/handle";
import { deleteWebhookEndpointOp, updateWebhookEndpointOp } from "@/lib/operations/webhooks";
import { checkWebhookDestination } from "@/lib/webhooks/create-endpoint";
import { updateWebhookEndpoint } from "@/lib/webhooks/update-endpoint";
import { deleteWebhookEndpoint } from "@/lib/webhooks/delete-endpoint";
import type { TWebhookEndpointUpdate } from "@/lib/schemas/webhooks";
import { notServed } from "@/lib/http/not-served";

// PATCH /webhook-endpoints/{id} – change url, event types, secret (24 h overlap) or enabled
export const PATCH = handle(
  updateWebhookEndpointOp,
  async ({ tx, principal, params, body }) => ({
    status: 200,
    body: await updateWebhookEndpoint(tx, { organizationId: principal.organizationId, id: params.id, body }),
  }),
  { beforeTransaction: (body) => checkWebhookDestination(body as TWebhookEndpointUpdate) },
);

// DELETE /webhook-endpoints/{id} – delete the endpoint and cancel its pending deliveries
export const DELETE = handle(deleteWebhookEndpointOp, async ({ tx, principal, params }) => {
  await deleteWebhookEndpoint(tx, { organizationId: principal.organizationId, id: params.id });
  return { status: 204 };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, POST, PUT } = notServed("PATCH", "DELETE");
