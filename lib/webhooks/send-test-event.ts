import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { actorOf, type Principal } from "@/lib/auth/principal";
import { retrySchedule } from "@/lib/webhooks/schedule";
import type { TWebhookEndpoint } from "@/lib/schemas/webhooks";
import { webhookEndpointView } from "@/lib/webhooks/view";

// Queues a `webhook.test` event for this one endpoint (also a disabled one: a receiver can
// be checked before it is enabled again), delivered, signed and retried like any event.
// The event is in the organization's audit trail; its data is `{ test: true, webhook_endpoint }`.
export type SendWebhookTestInput = { organizationId: string; principal: Principal; id: string };

export async function sendWebhookTest(tx: Tx, input: SendWebhookTestInput): Promise<{ event_id: string; delivery_id: string }> {
  const { organizationId, principal, id } = input;
  const row = await tx.webhookEndpoint.findFirst({ where: { id, organizationId, deletedAt: null } });
  if (!row) throw new AppError("not_found", "webhook endpoint not found");
  const endpoint: TWebhookEndpoint = webhookEndpointView(row);
  const eventId = newId();
  const deliveryId = newId();
  const createdAt = new Date();
  const actor = actorOf(principal);
  await tx.event.create({
    data: { id: eventId, organizationId, type: "webhook.test", ...actor, data: { test: true, webhook_endpoint: endpoint }, createdAt },
  });
  await tx.webhookDelivery.create({
    data: {
      id: deliveryId,
      organizationId,
      endpointId: id,
      eventId,
      status: "pending",
      nextAttemptAt: new Date(createdAt.getTime() + (retrySchedule()[0] ?? 0) * 1000),
      createdAt,
      updatedAt: createdAt,
    },
  });
  return { event_id: eventId, delivery_id: deliveryId };
}
