import { sqlCount, type Tx } from "@/lib/db";
import type { EventType } from "@/lib/events/event-types";
import { newId } from "@/lib/ids";
import type { Principal } from "@/lib/auth/principal";
import { actorOf } from "@/lib/auth/principal";
import { retrySchedule } from "@/lib/webhooks/schedule";

// Records an event in the caller's transaction: the audit trail entry and the webhook
// outbox (one pending delivery per enabled endpoint of the organization) commit together
// with the change that caused them, so no event is ever lost or sent for a rolled-back
// change. `data` is the payload's `data` (a snapshot taken now, e.g. the obligation
// projection with its version).
export async function recordEvent(
  tx: Tx,
  input: {
    id?: string; // a caller that must know the id beforehand (the scheduler's mark)
    organizationId: string;
    type: EventType;
    principal: Principal;
    obligationId?: string;
    paymentId?: string;
    data: Record<string, unknown>;
    detail?: Record<string, unknown>; // audit-only facts (e.g. message text, amounts)
  },
): Promise<{ id: string; createdAt: Date }> {
  const id = input.id ?? newId();
  const createdAt = new Date();
  const data = JSON.stringify({ ...input.data, ...(input.detail ? { detail: input.detail } : {}) }, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
  const actor = actorOf(input.principal);
  // First attempt due at created_at + WEBHOOK_RETRY_SCHEDULE[0] (lib/webhooks/flush.ts sends it).
  const firstAttemptAt = new Date(createdAt.getTime() + (retrySchedule()[0] ?? 0) * 1000);
  // One statement, one round trip: the event and its outbox rows (straight to the
  // transaction's connection, lib/db.ts).
  const at = createdAt.toISOString();
  await sqlCount(
    tx,
    `WITH ev AS (
      INSERT INTO events (id, organization_id, type, obligation_id, payment_id, actor_type, actor_id, actor_label, data, created_at)
      VALUES ($1::uuid, $2::uuid, $3, $4::uuid, $5::uuid, $6, $7, $8, $9::jsonb, $10::timestamptz)
      RETURNING id, organization_id
    )
    INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
    SELECT gen_random_uuid(), e.organization_id, e.id, ev.id, 'pending', $11::timestamptz, $10::timestamptz, $10::timestamptz
    FROM ev JOIN webhook_endpoints e ON e.organization_id = ev.organization_id AND e.enabled`,
    [
      id,
      input.organizationId,
      input.type,
      input.obligationId ?? null,
      input.paymentId ?? null,
      actor.actorType,
      actor.actorId,
      actor.actorLabel,
      data,
      at,
      firstAttemptAt.toISOString(),
    ],
  );
  return { id, createdAt };
}
