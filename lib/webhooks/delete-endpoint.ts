import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { failPendingDeliveries } from "@/lib/webhooks/fail-pending";

// Deletes an endpoint: it receives nothing more, leaves the endpoint list, and its pending
// deliveries are cancelled (failed, "cancelled: endpoint deleted"). The row stays so that its
// past deliveries keep their history in GET /webhook-deliveries; its secrets do not (nothing
// is ever signed for it again).
export type DeleteWebhookEndpointInput = { organizationId: string; id: string };

export async function deleteWebhookEndpoint(tx: Tx, input: DeleteWebhookEndpointInput): Promise<void> {
  const { organizationId, id } = input;
  const n = await tx.webhookEndpoint.updateMany({
    where: { id, organizationId, deletedAt: null },
    data: {
      deletedAt: new Date(),
      enabled: false,
      disabledReason: "deleted",
      secretCiphertext: "",
      previousSecretCiphertext: "",
      previousSecretExpiresAt: null,
    },
  });
  if (n.count === 0) throw new AppError("not_found", "webhook endpoint not found");
  await failPendingDeliveries(tx, { organizationId, endpointId: id, reason: "cancelled: endpoint deleted" });
}
