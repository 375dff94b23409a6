import { transaction } from "@/lib/db/client";
import type { CronPrincipal } from "@/lib/auth/principal";
import { recordEvent } from "@/lib/events/record-event";
import { WEBHOOK_DISABLE_AFTER_DAYS } from "@/lib/webhooks/schedule";
import { failPendingDeliveries } from "@/lib/webhooks/fail-pending";
import { webhookEndpointView } from "@/lib/webhooks/view";

const SYSTEM: CronPrincipal = { kind: "cron" };

// Disables an endpoint that failed every attempt for WEBHOOK_DISABLE_AFTER_DAYS (the flusher
// calls it after recording such a failure): its queued deliveries fail, and the event
// webhook_endpoint.disabled goes to the audit trail and the organization's other endpoints,
// in one transaction. The conditional UPDATE makes it happen once whatever the flushers do.
export async function disableFailingEndpoint(organizationId: string, endpointId: string): Promise<boolean> {
  return transaction(async (tx) => {
    const since = new Date(Date.now() - WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000);
    const where = { id: endpointId, organizationId, enabled: true, deletedAt: null, failingSince: { lte: since } };
    const row = await tx.webhookEndpoint.findFirst({ where });
    if (!row?.failingSince) return false;
    const reason = `every delivery attempt failed for ${WEBHOOK_DISABLE_AFTER_DAYS} days (since ${row.failingSince.toISOString()})`;
    const n = await tx.webhookEndpoint.updateMany({ where, data: { enabled: false, disabledReason: reason } });
    if (n.count === 0) return false;
    const updated = { ...row, enabled: false, disabledReason: reason };
    await failPendingDeliveries(tx, { organizationId, endpointId, reason: `endpoint disabled: ${reason}` });
    await recordEvent(tx, { organizationId, type: "webhook_endpoint.disabled", principal: SYSTEM, data: { webhook_endpoint: webhookEndpointView(updated) } });
    return true;
  });
}
