import { handle } from "@/lib/http/handle";
import { retryWebhookDeliveryOp } from "@/lib/operations/webhooks";
import { retryWebhookDelivery } from "@/lib/webhooks/retry-delivery";
import { notServed } from "@/lib/http/not-served";

// POST /webhook-deliveries/{id}/retry – requeue a failed delivery for one more attempt
export const POST = handle(retryWebhookDeliveryOp, async ({ tx, principal, params, idempotencyKey }) => {
  // biome-ignore lint/style/noNonNullAssertion: the operation is idempotent, so the pipeline refused any request without a key
  await retryWebhookDelivery(tx, { organizationId: principal.organizationId, deliveryId: params.id, key: idempotencyKey! });
  return { status: 204 };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
