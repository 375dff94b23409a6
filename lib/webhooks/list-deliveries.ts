import type { Tx } from "@/lib/db";

const ts = (d: Date | null) => (d ? d.toISOString() : "");

export const DELIVERY_LIST_SIZE = 100;

// The 100 most recent deliveries of one organization, newest first.
export async function listWebhookDeliveries(tx: Tx, organizationId: string) {
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
  return rows.map((r) => ({
    id: r.id,
    endpoint_id: r.endpointId,
    event_id: r.eventId,
    event_type: typeOf.get(r.eventId) ?? "",
    status: r.status as "pending" | "succeeded" | "failed",
    attempts: r.attempts,
    next_attempt_at: r.status === "pending" ? ts(r.nextAttemptAt) : "",
    last_attempt_at: ts(r.lastAttemptAt),
    last_response_status: r.lastResponseStatus,
    last_error: r.lastError,
    created_at: r.createdAt.toISOString(),
  }));
}
