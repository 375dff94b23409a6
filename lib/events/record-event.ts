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
  await tx.event.create({
    data: {
      id,
      organizationId: input.organizationId,
      type: input.type,
      obligationId: input.obligationId ?? null,
      paymentId: input.paymentId ?? null,
      ...actorOf(input.principal),
      data: JSON.parse(
        JSON.stringify({ ...input.data, ...(input.detail ? { detail: input.detail } : {}) }, (_k, v) => (typeof v === "bigint" ? v.toString() : v)),
      ),
      createdAt,
    },
  });
  // First attempt due at created_at + WEBHOOK_RETRY_SCHEDULE[0] (lib/webhooks/flush.ts sends it).
  const firstAttemptAt = new Date(createdAt.getTime() + (retrySchedule()[0] ?? 0) * 1000);
  await tx.$executeRaw`
    INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
    SELECT gen_random_uuid(), e.organization_id, e.id, ${id}::uuid, 'pending', ${firstAttemptAt.toISOString()}::timestamptz,
      ${createdAt.toISOString()}::timestamptz, ${createdAt.toISOString()}::timestamptz
    FROM webhook_endpoints e
    WHERE e.organization_id = ${input.organizationId}::uuid AND e.enabled`;
  return { id, createdAt };
}
