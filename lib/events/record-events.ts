import type { Tx } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import type { Principal } from "@/lib/auth/principal";
import { actorOf } from "@/lib/auth/principal";
import { retrySchedule } from "@/lib/webhooks/schedule";
import type { EventType } from "@/lib/events/event-types";
import { RECEIVES_SQL } from "@/lib/webhooks/receives";

// recordEvent for many events at once (a bank statement import records one per payment):
// the same rows — audit trail entries and one pending webhook delivery per enabled
// endpoint — in two multi-row statements per chunk instead of two per event.
export async function recordEvents(
  tx: Tx,
  organizationId: string,
  principal: Principal,
  // `id`: for a caller that must know the event id beforehand (the scheduler's marks).
  // `createdAt`: for a caller whose events must keep their order in the audit trail and the
  // payloads (the scheduler's catch-up: one millisecond apart); default now.
  events: { id?: string; type: EventType; obligationId?: string; paymentId?: string; data: Record<string, unknown>; createdAt?: Date }[],
): Promise<void> {
  if (events.length === 0) return;
  const actor = actorOf(principal);
  const now = new Date();
  const firstDelayMs = (retrySchedule()[0] ?? 0) * 1000;
  const json = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x));
  for (let i = 0; i < events.length; i += 2000) {
    const chunk = events.slice(i, i + 2000);
    const ids = chunk.map((e) => e.id ?? newId());
    const createdAts = chunk.map((e) => (e.createdAt ?? now).toISOString());
    const firstAttempts = chunk.map((e) => new Date((e.createdAt ?? now).getTime() + firstDelayMs).toISOString());
    await tx.$executeRawUnsafe(
      `INSERT INTO events (id, organization_id, type, obligation_id, payment_id, actor_type, actor_id, actor_label, data, created_at)
       SELECT e.id, $1::uuid, e.type, e.obligation_id, e.payment_id, $2, $3, $4, e.data::jsonb, e.created_at
       FROM unnest($5::timestamptz[], $6::uuid[], $7::text[], $8::uuid[], $9::uuid[], $10::text[]) WITH ORDINALITY AS e(created_at, id, type, obligation_id, payment_id, data, n)
       ORDER BY e.n`,
      organizationId,
      actor.actorType,
      actor.actorId,
      actor.actorLabel,
      createdAts,
      ids,
      chunk.map((e) => e.type),
      chunk.map((e) => e.obligationId ?? null),
      chunk.map((e) => e.paymentId ?? null),
      chunk.map((e) => json(e.data)),
    );
    await tx.$executeRawUnsafe(
      `INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
       SELECT gen_random_uuid(), w.organization_id, w.id, ev.id, 'pending', ev.first_attempt_at, ev.created_at, ev.created_at
       FROM webhook_endpoints w CROSS JOIN unnest($2::uuid[], $3::text[], $4::timestamptz[], $5::timestamptz[]) AS ev(id, type, first_attempt_at, created_at)
       WHERE w.organization_id = $1::uuid AND ${RECEIVES_SQL("w", "ev.type")}`,
      organizationId,
      ids,
      chunk.map((e) => e.type),
      firstAttempts,
      createdAts,
    );
  }
}
