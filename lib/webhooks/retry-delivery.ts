import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { AppError } from "@/lib/errors";
import { retrySchedule } from "@/lib/webhooks/schedule";

// Requeues a failed delivery for one more attempt, due now. The accepted retry key is kept
// in webhook_retry_keys for as long as the delivery exists, so replaying it is a no-op
// (204) forever: after later retry cycles and after the 24 h idempotency retention.
// `key` is the request's Idempotency-Key: the retry is accepted once per key.
export type RetryWebhookDeliveryInput = { organizationId: string; deliveryId: string; key: string };

export async function retryWebhookDelivery(tx: Tx, input: RetryWebhookDeliveryInput): Promise<void> {
  const { organizationId, deliveryId, key } = input;
  const accepted = await tx.webhookRetryKey.findUnique({ where: { organizationId_key: { organizationId, key } } });
  if (accepted) {
    if (accepted.deliveryId === deliveryId) return;
    throw new AppError("idempotency_key_reused", "this Idempotency-Key was used to retry another delivery");
  }
  // One more attempt: put it on the last slot of the schedule, so a failure ends in `failed`.
  const lastSlot = retrySchedule().length - 1;
  const updated = await query(tx)
    .updateTable("webhook_deliveries as d")
    .set({
      status: "pending",
      next_attempt_at: raw<Date>`now()`,
      lease_until: null,
      schedule_index: raw<number>`GREATEST(d.schedule_index, ${lastSlot})`,
      updated_at: raw<Date>`now()`,
    })
    .where("d.id", "=", deliveryId)
    .where("d.organization_id", "=", organizationId)
    .where("d.status", "=", "failed")
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("webhook_endpoints as w")
          .select("w.id")
          .whereRef("w.id", "=", "d.endpoint_id")
          .whereRef("w.organization_id", "=", "d.organization_id")
          .where("w.deleted_at", "is", null),
      ),
    )
    .executeTakeFirst();
  const n = Number(updated.numUpdatedRows);
  if (n === 0) {
    const exists = await tx.webhookDelivery.findFirst({ where: { id: deliveryId, organizationId }, select: { status: true, endpointId: true } });
    if (!exists) throw new AppError("not_found", "webhook delivery not found");
    const endpoint = await tx.webhookEndpoint.findFirst({ where: { id: exists.endpointId, organizationId, deletedAt: null }, select: { id: true } });
    if (!endpoint) throw new AppError("not_found", "the endpoint of this webhook delivery was deleted");
    throw new AppError("delivery_not_failed", `only a failed delivery can be retried; this one is ${exists.status}`);
  }
  await tx.webhookRetryKey.create({ data: { organizationId, deliveryId, key } });
}
