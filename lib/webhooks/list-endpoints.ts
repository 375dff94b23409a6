import type { Tx } from "@/lib/db/client";
import type { TWebhookEndpoint } from "@/lib/schemas/webhooks";
import { webhookEndpointView } from "@/lib/webhooks/view";

export type ListWebhookEndpointsInput = { organizationId: string };

// Endpoint configuration and delivery health of one organization, newest first.
export async function listWebhookEndpoints(tx: Tx, input: ListWebhookEndpointsInput): Promise<TWebhookEndpoint[]> {
  const rows = await tx.webhookEndpoint.findMany({
    where: { organizationId: input.organizationId, deletedAt: null },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  return rows.map(webhookEndpointView);
}
