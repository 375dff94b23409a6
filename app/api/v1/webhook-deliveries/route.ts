import { handle } from "@/lib/http/handle";
import { listWebhookDeliveriesOp } from "@/lib/operations/webhooks";
import { listWebhookDeliveries } from "@/lib/webhooks/list-deliveries";

// GET /webhook-deliveries – the 100 most recent deliveries
export const GET = handle(listWebhookDeliveriesOp, async ({ tx, principal }) => ({
  status: 200,
  body: { items: await listWebhookDeliveries(tx, { organizationId: principal.organizationId }) },
}));
