import type { Tx } from "@/lib/db/client";

// What is still queued for an endpoint that stops receiving (disabled, deleted) fails with
// `reason` as its last error (a failed delivery can still be retried, docs/webhooks.md). An
// attempt in flight right now records nothing afterwards: its lease no longer matches.
export async function failPendingDeliveries(tx: Tx, input: { organizationId: string; endpointId: string; reason: string }): Promise<number> {
  return tx.webhookDelivery
    .updateMany({
      where: { organizationId: input.organizationId, endpointId: input.endpointId, status: "pending" },
      data: { status: "failed", nextAttemptAt: null, leaseUntil: null, lastError: input.reason, updatedAt: new Date() },
    })
    .then((r) => r.count);
}
