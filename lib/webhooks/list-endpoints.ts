import type { Tx } from "@/lib/db";

const ts = (d: Date | null) => (d ? d.toISOString() : "");

// Endpoint configuration and delivery health of one organization, newest first.
export async function listWebhookEndpoints(tx: Tx, organizationId: string) {
  const rows = await tx.webhookEndpoint.findMany({ where: { organizationId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return rows.map((r) => ({
    id: r.id,
    url: r.url,
    enabled: r.enabled,
    disabled_reason: r.disabledReason,
    created_at: r.createdAt.toISOString(),
    last_success_at: ts(r.lastSuccessAt),
    last_failure_at: ts(r.lastFailureAt),
    consecutive_failures: r.consecutiveFailures,
  }));
}
