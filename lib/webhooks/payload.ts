// The webhook request body: `{ id, type, created_at, organization_id, data }` where `data`
// is the event's snapshot (data.obligation, data.payment for payment events) without the
// audit-only `detail` key. Built from the stored event, so every attempt sends the same body.
export type EventRow = { id: string; organizationId: string; type: string; createdAt: Date; data: unknown };

export function webhookBody(e: EventRow): string {
  const data = e.data && typeof e.data === "object" && !Array.isArray(e.data) ? { ...(e.data as Record<string, unknown>) } : {};
  delete data.detail;
  return JSON.stringify({ id: e.id, type: e.type, created_at: e.createdAt.toISOString(), organization_id: e.organizationId, data });
}
