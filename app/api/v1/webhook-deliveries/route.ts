import { handle } from "@/lib/http/handle";
import { listWebhookDeliveriesOp } from "@/lib/operations/webhooks";
import { listWebhookDeliveries } from "@/lib/webhooks/list-deliveries";
import { notServed } from "@/lib/http/not-served";

// GET /webhook-deliveries – the 100 most recent deliveries
export const GET = handle(listWebhookDeliveriesOp, async ({ tx, principal }) => ({
  status: 200,
  body: { items: await listWebhookDeliveries(tx, { organizationId: principal.organizationId }) },
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
