import { sqlLater, type Tx } from "@/lib/db/client";
import type { EventType } from "@/lib/events/event-types";
import { newId } from "@/lib/ids";
import type { Principal } from "@/lib/auth/principal";
import { actorOf } from "@/lib/auth/principal";
import { retrySchedule } from "@/lib/webhooks/schedule";
import { RECEIVES_SQL } from "@/lib/webhooks/receives";

export type RecordEventInput = {
  id?: string; // a caller that must know the id beforehand (the scheduler's mark)
  organizationId: string;
  type: EventType;
  principal: Principal;
  obligationId?: string;
  paymentId?: string;
  data: Record<string, unknown>;
  detail?: Record<string, unknown>; // audit-only facts (e.g. message text, amounts)
  webhooks?: false; // recorded for the audit trail only, no webhook delivery (a payer's message beyond its hourly bound)
};

// Records an event in the caller's transaction: the audit trail entry and the webhook
// outbox (one pending delivery per enabled endpoint of the organization) commit together
// with the change that caused them, so no event is ever lost or sent for a rolled-back
// change. `data` is the payload's `data` (a snapshot taken now, e.g. the obligation
// projection with its version). One statement, straight to the transaction's connection,
// held back until the transaction's next statement or its COMMIT and sent in the same write
// (lib/db/client.ts, sqlLater): its failure is the transaction's.
export async function recordEvent(tx: Tx, input: RecordEventInput): Promise<{ id: string; createdAt: Date }> {
  const w = eventWrite(input);
  const { ctes, values } = w.statement(1);
  await sqlLater(tx, `WITH ${ctes.join(", ")} SELECT 1`, values);
  return { id: w.id, createdAt: w.createdAt };
}

// The same write as common table expressions, for a caller that writes the event in the
// statement that makes the change (registration: lib/db/insert-rows.ts). `statement(first)`
// numbers its parameters from $first.
export function eventWrite(input: RecordEventInput): {
  id: string;
  createdAt: Date;
  statement: (first: number) => { ctes: string[]; values: unknown[] };
} {
  const id = input.id ?? newId();
  const createdAt = new Date();
  const data = JSON.stringify({ ...input.data, ...(input.detail ? { detail: input.detail } : {}) }, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
  const actor = actorOf(input.principal);
  // First attempt due at created_at + WEBHOOK_RETRY_SCHEDULE[0] (lib/webhooks/flush.ts sends it).
  const firstAttemptAt = new Date(createdAt.getTime() + (retrySchedule()[0] ?? 0) * 1000);
  const values = [
    id,
    input.organizationId,
    input.type,
    input.obligationId ?? null,
    input.paymentId ?? null,
    actor.actorType,
    actor.actorId,
    actor.actorLabel,
    data,
    createdAt.toISOString(),
    firstAttemptAt.toISOString(),
  ];
  const statement = (first: number) => {
    const p = (n: number) => `$${first + n - 1}`;
    return {
      ctes: [
        `ev AS (
      INSERT INTO events (id, organization_id, type, obligation_id, payment_id, actor_type, actor_id, actor_label, data, created_at)
      VALUES (${p(1)}::uuid, ${p(2)}::uuid, ${p(3)}, ${p(4)}::uuid, ${p(5)}::uuid, ${p(6)}, ${p(7)}, ${p(8)}, ${p(9)}::jsonb, ${p(10)}::timestamptz)
      RETURNING id, organization_id)`,
        `ev_outbox AS (
      INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
      SELECT gen_random_uuid(), e.organization_id, e.id, ev.id, 'pending', ${p(11)}::timestamptz, ${p(10)}::timestamptz, ${p(10)}::timestamptz
      FROM ev JOIN webhook_endpoints e ON e.organization_id = ev.organization_id AND ${RECEIVES_SQL("e", `${p(3)}::text`)})`,
      ].slice(0, input.webhooks === false ? 1 : 2),
      values: input.webhooks === false ? values.slice(0, 10) : values,
    };
  };
  return { id, createdAt, statement };
}
