import { type Insertable, sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { statement } from "@/lib/db/query";
import type { EventType } from "@/lib/events/event-types";
import type { Event } from "@/lib/generated/kysely/database";
import { newId } from "@/lib/ids";
import type { Principal } from "@/lib/auth/principal";
import { actorOf } from "@/lib/auth/principal";
import { retrySchedule } from "@/lib/webhooks/schedule";
import { RECEIVES_SQL } from "@/lib/webhooks/receives";

// One event of a change.
export type EventInput = {
  id?: string; // a caller that must know the id beforehand (the scheduler's marks)
  type: EventType;
  obligationId?: string;
  paymentId?: string;
  data: Record<string, unknown>;
  detail?: Record<string, unknown>; // audit-only facts (e.g. message text, amounts)
  // For a caller whose events must keep their order in the audit trail and the payloads (the
  // scheduler's catch-up: one millisecond apart); default now.
  createdAt?: Date;
  webhooks?: false; // recorded for the audit trail only, no webhook delivery (a payer's message beyond its hourly bound)
};

// One event (its fields beside the organization and principal), or several of one
// organization and principal (`events`: a bank statement import records one per payment).
export type RecordEventInput = { organizationId: string; principal: Principal } & (EventInput | { events: EventInput[] });

// Records events in the caller's transaction: the audit trail entries and the webhook outbox
// (one pending delivery per enabled endpoint of the organization) commit together with the
// change that caused them, so no event is ever lost or sent for a rolled-back change. `data`
// is the payload's `data` (a snapshot taken now, e.g. the obligation projection with its
// version). Held back until the transaction's next statement or its COMMIT and sent in the
// same write (lib/db/query.ts `later`): its failure is the transaction's. One event: its row
// and its deliveries (two statements); several: one statement however many.
export async function recordEvent(tx: Tx, input: { organizationId: string; principal: Principal } & EventInput): Promise<{ id: string; createdAt: Date }>;
export async function recordEvent(tx: Tx, input: { organizationId: string; principal: Principal; events: EventInput[] }): Promise<undefined>;
export async function recordEvent(tx: Tx, input: RecordEventInput): Promise<{ id: string; createdAt: Date } | undefined> {
  const events = "events" in input ? input.events : [input];
  if (events.length === 0) return undefined;
  const actor = actorOf(input.principal);
  const now = new Date();
  const rows: EventRow[] = [];
  const silent: string[] = [];
  for (const e of events) {
    const id = e.id ?? newId();
    if (e.webhooks === false) silent.push(id);
    rows.push({
      id,
      organization_id: input.organizationId,
      type: e.type,
      obligation_id: e.obligationId ?? null,
      payment_id: e.paymentId ?? null,
      actor_type: actor.actorType,
      actor_id: actor.actorId,
      actor_label: actor.actorLabel,
      data: e.detail ? { ...e.data, detail: e.detail } : e.data,
      created_at: (e.createdAt ?? now).toISOString(),
    });
  }
  const firstDelay = retrySchedule()[0] ?? 0; // first attempt due at created_at + WEBHOOK_RETRY_SCHEDULE[0] (lib/webhooks/flush.ts)
  if (rows.length === 1) {
    // One event (every action's): INSERT ... VALUES, then its deliveries unless silent.
    const [r] = rows;
    await INSERT_ONE.later(tx, { ...r, data: stringify(r.data) });
    if (silent.length === 0) await DELIVER_ONE.later(tx, { org: r.organization_id, id: r.id, type: r.type, at: r.created_at as string, firstDelay });
  } else {
    await WRITE.later(tx, { rows: stringify(rows), silent, firstDelay, organizationId: input.organizationId });
  }
  return "events" in input ? undefined : { id: rows[0].id, createdAt: now };
}

type EventRow = Insertable<Event> & { id: string };

const stringify = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x));

// A pending delivery of the event `ev` to the endpoint `e`, first attempt `firstDelay` seconds
// after the event (both forms of the write below select it).
const DELIVERY_COLUMNS = ["id", "organization_id", "endpoint_id", "event_id", "status", "next_attempt_at", "created_at", "updated_at"] as const;
const deliveryOf = (firstDelay: number) =>
  [
    raw<string>`gen_random_uuid()`.as("id"),
    "e.organization_id",
    "e.id as endpoint_id",
    "ev.id as event_id",
    raw<string>`'pending'`.as("status"),
    raw<Date>`ev.created_at + make_interval(secs => ${firstDelay}::float8)`.as("next_attempt_at"),
    "ev.created_at",
    "ev.created_at as updated_at",
  ] as const;

// One event's row, and its pending deliveries (one per receiving endpoint): two statements
// sent together, each one shard on Citus (router INSERT ... VALUES; the deliveries read the
// organization's endpoints on its shard). The JSON form below runs an INSERT in a writing CTE,
// which Citus takes through the coordinator: about twice the write's time on the cluster
// (docs/scaling.md "Rows written from JSON"), the same on PostgreSQL.
type OneEvent = { [K in (typeof COLUMNS)[number]]?: unknown } & { id: string; organization_id: string; type: string; data: string };
const INSERT_ONE = statement((q, p: OneEvent) =>
  q.insertInto("events").values({
    id: p.id,
    organization_id: p.organization_id,
    type: p.type,
    obligation_id: p.obligation_id as string | null,
    payment_id: p.payment_id as string | null,
    actor_type: p.actor_type as string,
    actor_id: p.actor_id as string,
    actor_label: p.actor_label as string,
    data: raw`${p.data}::jsonb`,
    created_at: raw`${p.created_at}::timestamptz`,
  }),
);
const DELIVER_ONE = statement((q, p: { org: string; id: string; type: string; at: string; firstDelay: number }) =>
  q
    .insertInto("webhook_deliveries")
    .columns(DELIVERY_COLUMNS)
    .expression((eb) =>
      eb
        .selectFrom(
          raw<{ id: string; type: string; created_at: Date }>`(SELECT ${p.id}::uuid AS id, ${p.type}::text AS type, ${p.at}::timestamptz AS created_at)`.as(
            "ev",
          ),
        )
        .innerJoin("webhook_endpoints as e", (j) => j.onTrue())
        .where("e.organization_id", "=", p.org)
        .select(deliveryOf(p.firstDelay))
        .where(raw<boolean>`${raw.raw(RECEIVES_SQL("e", "ev.type"))}`),
    ),
);

const COLUMNS = ["id", "organization_id", "type", "obligation_id", "payment_id", "actor_type", "actor_id", "actor_label", "data", "created_at"] as const;

// Several events (a JSON array of rows, expanded into the columns' own types) and one pending
// delivery per receiving endpoint, except for the events in `silent`.
const WRITE = statement((q, p: { rows: string; silent: string[]; firstDelay: number; organizationId: string }) =>
  q
    .with("ev", (w) =>
      w
        .insertInto("events")
        .columns(COLUMNS)
        .expression((eb) => eb.selectFrom(raw<Event>`json_populate_recordset(NULL::events, ${p.rows}::json)`.as("r")).select(COLUMNS))
        .returning(["id", "organization_id", "type", "created_at"]),
    )
    .insertInto("webhook_deliveries")
    .columns(DELIVERY_COLUMNS)
    .expression((eb) =>
      eb
        .selectFrom("ev")
        .innerJoin("webhook_endpoints as e", "e.organization_id", "ev.organization_id")
        // the organization as a value too: Citus routes the endpoints' read to its shard
        .where("e.organization_id", "=", p.organizationId)
        .select(deliveryOf(p.firstDelay))
        .where(raw<boolean>`${raw.raw(RECEIVES_SQL("e", "ev.type"))}`)
        .where(raw<boolean>`ev.id <> ALL(${p.silent}::uuid[])`),
    ),
);
