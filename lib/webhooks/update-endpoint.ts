import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { sealSecret } from "@/lib/crypto";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TWebhookEndpoint, TWebhookEndpointUpdate } from "@/lib/schemas/webhooks";
import { failPendingDeliveries } from "@/lib/webhooks/fail-pending";
import { webhookEndpointView } from "@/lib/webhooks/view";

// How long deliveries carry the previous secret's signature beside the new one.
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

// Changes an endpoint (a new url was checked by checkWebhookDestination before the
// transaction). A new secret keeps the current one, sealed, as the previous secret for 24
// hours. Disabling fails what is queued; enabling starts afresh (no failure run, no reason).
export type UpdateWebhookEndpointInput = { organizationId: string; id: string; body: TWebhookEndpointUpdate };

export async function updateWebhookEndpoint(tx: Tx, input: UpdateWebhookEndpointInput): Promise<TWebhookEndpoint> {
  const { organizationId, id, body } = input;
  const row = await tx.webhookEndpoint.findFirst({ where: { id, organizationId, deletedAt: null } });
  if (!row) throw new AppError("not_found", "webhook endpoint not found");
  const data: Prisma.WebhookEndpointUpdateInput = {};
  if (body.url !== undefined) data.url = body.url;
  if (body.event_types !== undefined) data.eventTypes = body.event_types;
  if (body.secret !== undefined) {
    data.previousSecretCiphertext = row.secretCiphertext;
    data.previousSecretExpiresAt = new Date(Date.now() + SECRET_OVERLAP_MS);
    data.secretCiphertext = sealSecret(body.secret);
  }
  if (body.enabled === true && !row.enabled) Object.assign(data, { enabled: true, disabledReason: "", failingSince: null, consecutiveFailures: 0 });
  if (body.enabled === false && row.enabled) {
    Object.assign(data, { enabled: false, disabledReason: "disabled by a person of the organization" });
    await failPendingDeliveries(tx, { organizationId, endpointId: id, reason: "endpoint disabled" });
  }
  const updated = await tx.webhookEndpoint.update({ where: { organizationId_id: { organizationId, id: row.id } }, data });
  return webhookEndpointView(updated);
}
