import type { Tx } from "@/lib/db";
import { newId } from "@/lib/ids";
import type { Principal } from "@/lib/auth/principal";
import { actorOf } from "@/lib/auth/principal";
import { retrySchedule } from "@/lib/webhooks/schedule";

// The event types (documented in the OpenAPI document): the event_type of mutation
// results, the audit trail entry and the webhook `type`.
export const EVENT_TYPES = [
  "obligation.registered",
  "obligation.payment_requested",
  "obligation.link_opened",
  "obligation.link_revoked",
  "obligation.link_reissued",
  "obligation.acknowledged",
  "obligation.dates_shared",
  "obligation.payment_reported",
  "obligation.message_posted",
  "obligation.document_added",
  "obligation.condition_satisfied",
  "obligation.condition_waived",
  "obligation.context_linked",
  "obligation.expected_payment_date_set",
  "payment.recorded",
  "payment.allocated",
  "bank_statement.imported",
  // Produced by the service's clock (lib/scheduler/sweep.ts), not by a request.
  "obligation.term_payable",
  "obligation.due",
  "obligation.overdue",
  "payment_request.expiring",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

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
  // One statement, one round trip: the event and its outbox rows.
  await tx.$executeRaw`
    WITH ev AS (
      INSERT INTO events (id, organization_id, type, obligation_id, payment_id, actor_type, actor_id, actor_label, data, created_at)
      VALUES (${id}::uuid, ${input.organizationId}::uuid, ${input.type}, ${input.obligationId ?? null}::uuid, ${input.paymentId ?? null}::uuid,
        ${actor.actorType}, ${actor.actorId}, ${actor.actorLabel}, ${data}::jsonb, ${createdAt.toISOString()}::timestamptz)
      RETURNING id, organization_id
    )
    INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
    SELECT gen_random_uuid(), e.organization_id, e.id, ev.id, 'pending', ${firstAttemptAt.toISOString()}::timestamptz,
      ${createdAt.toISOString()}::timestamptz, ${createdAt.toISOString()}::timestamptz
    FROM ev JOIN webhook_endpoints e ON e.organization_id = ev.organization_id AND e.enabled`;
  return { id, createdAt };
}
