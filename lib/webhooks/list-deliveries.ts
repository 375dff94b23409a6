import type { Tx } from "@/lib/db/client";
import type { TWebhookDelivery } from "@/lib/schemas/webhooks";
import { webhookDeliveryView } from "@/lib/webhooks/view";

export const DELIVERY_LIST_SIZE = 100;

export type ListWebhookDeliveriesInput = { organizationId: string };

// The 100 most recent deliveries of one organization, newest first.
export async function listWebhookDeliveries(tx: Tx, input: ListWebhookDeliveriesInput): Promise<TWebhookDelivery[]> {
  const { organizationId } = input;
  const rows = await tx.webhookDelivery.findMany({
    where: { organizationId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: DELIVERY_LIST_SIZE,
  });
  const events = await tx.event.findMany({
    where: { organizationId, id: { in: [...new Set(rows.map((r) => r.eventId))] } },
    select: { id: true, type: true },
  });
  const typeOf = new Map(events.map((e) => [e.id, e.type]));
  return rows.map((r) => webhookDeliveryView(r, typeOf.get(r.eventId) ?? ""));
}
