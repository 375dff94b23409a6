import { handle } from "@/lib/http/handle";
import { testWebhookEndpointOp } from "@/lib/operations/webhooks";
import { sendWebhookTest } from "@/lib/webhooks/send-test-event";
import { notServed } from "@/lib/http/not-served";

// POST /webhook-endpoints/{id}/test – queue a webhook.test event for this endpoint only
export const POST = handle(testWebhookEndpointOp, async ({ tx, principal, params }) => ({
  status: 202,
  body: await sendWebhookTest(tx, { organizationId: principal.organizationId, principal, id: params.id }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
