import { sql as raw } from "kysely";
import { db, transaction } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { env } from "@/lib/env";
import { logger } from "@/lib/log";
import { openSecret } from "@/lib/crypto";
import { webhookBody } from "@/lib/webhooks/payload";
import { signatureHeaders } from "@/lib/webhooks/sign";
import { sendWebhook, type SendOutcome } from "@/lib/webhooks/send";
import { leaseSeconds, retrySchedule, WEBHOOK_DISABLE_AFTER_DAYS } from "@/lib/webhooks/schedule";
import { disableFailingEndpoint } from "@/lib/webhooks/disable-failing-endpoint";
import { onShutdown, stopping } from "@/lib/maintenance/shutdown";

// The delivery engine. Any number of flushers (the in-process worker of every instance,
// overlapping cron calls) run this at once:
//   1. claim: organization by organization (those with due deliveries first found by one read
//      across organizations), one statement picks the organization's due, unleased pending
//      deliveries with FOR UPDATE SKIP LOCKED and stamps a short lease (lease_until) on them;
//   2. send: outside any transaction, one HTTP attempt per claimed delivery, each on its
//      own (a slow receiver holds only its own endpoint's slots, see PER_ENDPOINT);
//   3. record: the outcome is written only if the delivery still carries this flusher's
//      lease, so an attempt is recorded once, and a flusher that died (kill -9) leaves
//      leases that simply run out: its deliveries are claimed again (at-least-once).
export type FlushSummary = {
  claimed: number;
  succeeded: number;
  rescheduled: number;
  failed: number;
  lost_lease: number;
  duration_ms: number;
};

type Claimed = {
  id: string;
  organization_id: string;
  endpoint_id: string;
  schedule_index: number;
  lease_until: Date;
  event_id: string;
  event_type: string;
  event_created_at: Date;
  event_data: unknown;
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string; // "" unless a rotation happened within 24 hours
};

const CONCURRENCY = 16;
// At most this many attempts in flight per endpoint and flusher, so a receiver that accepts
// and never answers holds at most these slots, never the whole flusher.
const PER_ENDPOINT = 4;

// How many organizations with due deliveries one claim looks at (the longest waiting first).
const ORGANIZATIONS_PER_CLAIM = 32;

// Claims due deliveries, at most PER_ENDPOINT per endpoint and none of the endpoints in
// `busy` (already at their limit in this flusher): organization by organization, so that each
// claim names organization_id and runs on one shard on Citus (docs/scaling.md). Finding the
// organizations is a read across organizations; the claim inside each is what SKIP LOCKED guards.
export async function claimDue(limit: number, busy: string[] = []): Promise<Claimed[]> {
  const claimed: Claimed[] = [];
  for (const organizationId of await organizationsWithDeliveriesDue()) {
    if (claimed.length >= limit) break;
    claimed.push(...(await claimDueIn(organizationId, limit - claimed.length, busy)));
  }
  return claimed;
}

const leaseFree = (table: "webhook_deliveries" | "d") =>
  raw<boolean>`(${raw.ref(`${table}.lease_until`)} IS NULL OR ${raw.ref(`${table}.lease_until`)} < now())`;

async function organizationsWithDeliveriesDue(): Promise<string[]> {
  const rows = await query(db())
    .selectFrom("webhook_deliveries")
    .select("organization_id")
    .where("status", "=", "pending")
    .where("next_attempt_at", "<=", raw<Date>`now()`)
    .where(leaseFree("webhook_deliveries"))
    .groupBy("organization_id")
    .orderBy(raw`min(next_attempt_at)`)
    .limit(ORGANIZATIONS_PER_CLAIM)
    .execute();
  return rows.map((r) => r.organization_id);
}

// One statement: picks the organization's due, unleased deliveries (SKIP LOCKED) and stamps the lease.
async function claimDueIn(organizationId: string, limit: number, busy: string[]): Promise<Claimed[]> {
  return query(db())
    .with("ranked", (k) =>
      k
        .selectFrom("webhook_deliveries")
        .select(["id", "next_attempt_at", raw<number>`row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at)`.as("rn")])
        .where("organization_id", "=", organizationId)
        .where("status", "=", "pending")
        .where("next_attempt_at", "<=", raw<Date>`now()`)
        .where(leaseFree("webhook_deliveries"))
        .where(raw<boolean>`NOT (endpoint_id::text = ANY(${busy}::text[]))`),
    )
    .with("due", (k) =>
      k
        .selectFrom("webhook_deliveries as d")
        .innerJoin("ranked as r", "r.id", "d.id")
        .select("d.id")
        .where("r.rn", "<=", PER_ENDPOINT)
        .where("d.organization_id", "=", organizationId)
        .where("d.status", "=", "pending")
        .where(leaseFree("d"))
        .orderBy("r.next_attempt_at")
        .limit(limit)
        .forUpdate("d")
        .skipLocked(),
    )
    .updateTable("webhook_deliveries as d")
    .from(["due", "events as e", "webhook_endpoints as w"])
    .set({ lease_until: raw<Date>`now() + make_interval(secs => ${leaseSeconds()})`, updated_at: raw<Date>`now()` })
    .whereRef("d.id", "=", "due.id")
    .where("d.organization_id", "=", organizationId)
    .whereRef("e.id", "=", "d.event_id")
    .whereRef("e.organization_id", "=", "d.organization_id")
    .whereRef("w.id", "=", "d.endpoint_id")
    .whereRef("w.organization_id", "=", "d.organization_id")
    .returning([
      "d.id",
      "d.organization_id",
      "d.endpoint_id",
      "d.schedule_index",
      raw<Date>`d.lease_until`.as("lease_until"),
      "e.id as event_id",
      "e.type as event_type",
      "e.created_at as event_created_at",
      "e.data as event_data",
      "w.url",
      "w.secret_ciphertext",
      // The time as a parameter: Citus allows no now() (STABLE) in RETURNING.
      raw<string>`CASE WHEN w.previous_secret_expires_at > ${new Date().toISOString()} THEN w.previous_secret_ciphertext ELSE '' END`.as(
        "previous_secret_ciphertext",
      ),
    ])
    .execute();
}

type Result = "succeeded" | "rescheduled" | "failed" | "lost_lease";

// The leases this process holds (delivery id → claim), process-wide (two bundles of lib/
// may flush in one process). On SIGTERM the attempts under way may finish until the grace
// period ends; the leases of those still waiting for their receiver are then
// handed back (lease_until cleared, only while it is still this process's lease), so another
// instance attempts them at once instead of after the lease runs out. At-least-once either
// way: the receiver may have had the attempt that is repeated.
const gl = globalThis as unknown as { __fosWebhookLeases?: Map<string, Claimed>; __fosWebhookLeaseHook?: boolean };
gl.__fosWebhookLeases ??= new Map();
const leases = gl.__fosWebhookLeases;

function held(row: Claimed): void {
  leases.set(row.id, row);
  if (gl.__fosWebhookLeaseHook) return;
  gl.__fosWebhookLeaseHook = true;
  onShutdown(async (deadline) => {
    while (leases.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await releaseLeases();
  });
}

// Hands back every lease this process still holds; returns how many deliveries it released.
async function releaseLeases(): Promise<number> {
  const rows = [...leases.values()];
  leases.clear();
  if (rows.length === 0) return 0;
  // One statement per organization (each names organization_id: one shard on Citus).
  const byOrganization = new Map<string, Claimed[]>();
  for (const r of rows) byOrganization.set(r.organization_id, [...(byOrganization.get(r.organization_id) ?? []), r]);
  let n = 0;
  for (const [organizationId, held] of byOrganization) {
    const r = await query(db())
      .updateTable("webhook_deliveries as d")
      .from(
        raw<{
          id: string;
          lease_until: Date;
        }>`unnest(${held.map((r) => r.id)}::uuid[], ${held.map((r) => r.lease_until.toISOString())}::timestamptz[])`.as<"h">(raw`h(id, lease_until)`),
      )
      .set({ lease_until: null, updated_at: raw<Date>`now()` })
      .where("d.organization_id", "=", organizationId)
      .whereRef("d.id", "=", "h.id")
      .where("d.status", "=", "pending")
      .whereRef("d.lease_until", "=", "h.lease_until")
      .executeTakeFirst();
    n += Number(r.numUpdatedRows);
  }
  logger().info({ released: n }, "webhook leases handed back");
  return n;
}

// Claims and sends without ever waiting for a whole batch: each attempt runs on its own and
// frees its slot when done; the loop claims again as soon as a slot frees up or, with
// `pollMs`, at least every pollMs (new deliveries become due while others are in flight).
// A cron call claims for `budgetMs` and returns once nothing is due and nothing is in flight;
// the in-process worker passes `until` and runs until it is stopped.
export async function flushWebhooks(opts: { budgetMs?: number; pollMs?: number; until?: () => boolean } = {}): Promise<FlushSummary> {
  const started = Date.now();
  const budgetMs = opts.budgetMs ?? 20_000;
  const claiming = () => !stopping() && (opts.until ? !opts.until() : Date.now() - started < budgetMs);
  const summary: FlushSummary = { claimed: 0, succeeded: 0, rescheduled: 0, failed: 0, lost_lease: 0, duration_ms: 0 };
  const inFlight = new Map<Promise<void>, string>(); // attempt -> endpoint id
  for (;;) {
    const open = claiming();
    let claimed = 0;
    if (open && inFlight.size < CONCURRENCY) {
      const perEndpoint = new Map<string, number>();
      for (const ep of inFlight.values()) perEndpoint.set(ep, (perEndpoint.get(ep) ?? 0) + 1);
      const busy = [...perEndpoint].filter(([, n]) => n >= PER_ENDPOINT).map(([ep]) => ep);
      const rows = await claimDue(CONCURRENCY - inFlight.size, busy);
      claimed = rows.length;
      summary.claimed += rows.length;
      for (const row of rows) {
        held(row);
        const p: Promise<void> = deliver(row)
          .then((r) => void summary[r]++)
          .catch((err) => logger().error({ deliveryId: row.id, err: (err as Error).message }, "webhook delivery failed unexpectedly"))
          .finally(() => {
            inFlight.delete(p);
            leases.delete(row.id);
          });
        inFlight.set(p, row.endpoint_id);
      }
    }
    if (claimed > 0 && inFlight.size < CONCURRENCY) continue;
    if (inFlight.size === 0 && (!open || opts.pollMs === undefined)) break;
    let timer: NodeJS.Timeout | undefined;
    const waits: Promise<unknown>[] = [...inFlight.keys()];
    if (open && opts.pollMs !== undefined) waits.push(new Promise((r) => (timer = setTimeout(r, opts.pollMs))));
    await Promise.race(waits);
    if (timer) clearTimeout(timer);
  }
  summary.duration_ms = Date.now() - started;
  return summary;
}

async function deliver(c: Claimed): Promise<Result> {
  const e = env();
  const attemptAt = new Date();
  let outcome: SendOutcome;
  try {
    const body = webhookBody({
      id: c.event_id,
      organizationId: c.organization_id,
      type: c.event_type,
      createdAt: c.event_created_at,
      data: typeof c.event_data === "string" ? JSON.parse(c.event_data) : c.event_data,
    });
    const headers = signatureHeaders({
      id: c.event_id,
      timestampSeconds: Math.floor(Date.now() / 1000),
      body,
      secret: openSecret(c.secret_ciphertext),
      ...(c.previous_secret_ciphertext ? { previousSecret: openSecret(c.previous_secret_ciphertext) } : {}),
    });
    outcome = await sendWebhook({ url: c.url, headers, body, timeoutMs: e.WEBHOOK_TIMEOUT_MS, allowPrivate: e.WEBHOOK_ALLOW_PRIVATE_NETWORKS });
  } catch (err) {
    outcome = { ok: false, status: null, error: "internal error while sending" };
    logger().error({ deliveryId: c.id, err: (err as Error).message }, "webhook send error");
  }
  const result = await record(c, attemptAt, outcome);
  logger().info(
    { deliveryId: c.id, endpointId: c.endpoint_id, eventId: c.event_id, org: c.organization_id, status: outcome.status, result },
    "webhook attempt",
  );
  return result;
}

// Failing since before this instant for WEBHOOK_DISABLE_AFTER_DAYS: the endpoint is disabled.
const disableCutoff = () => new Date(Date.now() - WEBHOOK_DISABLE_AFTER_DAYS * 86_400_000);

async function record(c: Claimed, attemptAt: Date, o: SendOutcome): Promise<Result> {
  if (!o.ok && o.gone) return recordGone(c, attemptAt, o);
  const schedule = retrySchedule();
  const nextIndex = c.schedule_index + 1;
  const status = o.ok ? "succeeded" : nextIndex >= schedule.length ? "failed" : "pending";
  const retryAfter = o.ok ? 0 : (o.retryAfterSeconds ?? 0);
  // One statement: the delivery (only while it still carries this flusher's lease) and the
  // endpoint's health change together; it tells whether the endpoint has now failed every
  // attempt for WEBHOOK_DISABLE_AFTER_DAYS.
  const at = raw<Date>`${attemptAt.toISOString()}::timestamptz`;
  const endpoint = o.ok
    ? { last_success_at: raw<Date>`now()`, consecutive_failures: 0, failing_since: null }
    : {
        last_failure_at: raw<Date>`now()`,
        consecutive_failures: raw<number>`w.consecutive_failures + 1`,
        failing_since: raw<Date>`coalesce(w.failing_since, ${at})`,
      };
  const rows = await query(db())
    .with("d", (k) =>
      k
        .updateTable("webhook_deliveries")
        .set({
          status,
          attempts: raw<number>`attempts + 1`,
          lease_until: null,
          updated_at: raw<Date>`now()`,
          schedule_index: status === "pending" ? nextIndex : c.schedule_index,
          next_attempt_at:
            status === "pending"
              ? raw<Date>`GREATEST(${c.event_created_at.toISOString()}::timestamptz + make_interval(secs => ${schedule[nextIndex] ?? 0}),
                  now() + make_interval(secs => ${retryAfter}))`
              : null,
          last_attempt_at: at,
          last_response_status: o.status,
          last_error: o.ok ? "" : o.error,
        })
        .where("id", "=", c.id)
        .where("organization_id", "=", c.organization_id)
        .where("status", "=", "pending")
        .where("lease_until", "=", raw<Date>`${c.lease_until.toISOString()}::timestamptz`)
        .returning(["endpoint_id", "organization_id"]),
    )
    .updateTable("webhook_endpoints as w")
    .from("d")
    .set(endpoint)
    .whereRef("w.id", "=", "d.endpoint_id")
    .whereRef("w.organization_id", "=", "d.organization_id")
    .returning(
      // The cut-off as a parameter: Citus allows only immutable functions in RETURNING (no now(), no timestamptz - interval).
      raw<boolean>`(w.enabled AND w.deleted_at IS NULL AND w.failing_since <= ${disableCutoff().toISOString()}::timestamptz)`.as("disable"),
    )
    .execute();
  if (rows.length === 0) return "lost_lease";
  if (rows[0].disable) await disableFailingEndpoint(c.organization_id, c.endpoint_id);
  return status === "succeeded" ? "succeeded" : status === "failed" ? "failed" : "rescheduled";
}

// 410 Gone: the receiver asked to stop. The delivery fails, the endpoint is disabled (no
// new deliveries) and what is still queued for it fails too; a delivery another flusher
// holds right now records its own outcome.
async function recordGone(c: Claimed, attemptAt: Date, o: Extract<SendOutcome, { ok: false }>): Promise<Result> {
  return transaction(async (tx) => {
    const at = raw<Date>`${attemptAt.toISOString()}::timestamptz`;
    const gone = await query(tx)
      .updateTable("webhook_deliveries")
      .set({
        status: "failed",
        attempts: raw<number>`attempts + 1`,
        next_attempt_at: null,
        lease_until: null,
        last_attempt_at: at,
        last_response_status: o.status,
        last_error: o.error,
        updated_at: raw<Date>`now()`,
      })
      .where("id", "=", c.id)
      .where("organization_id", "=", c.organization_id)
      .where("status", "=", "pending")
      .where("lease_until", "=", raw<Date>`${c.lease_until.toISOString()}::timestamptz`)
      .executeTakeFirst();
    if (Number(gone.numUpdatedRows) === 0) return "lost_lease";
    const reason = `receiver answered HTTP 410 Gone at ${attemptAt.toISOString()}`;
    await query(tx)
      .updateTable("webhook_endpoints")
      .set({
        enabled: false,
        disabled_reason: reason,
        last_failure_at: raw<Date>`now()`,
        consecutive_failures: raw<number>`consecutive_failures + 1`,
        // the attempt's time as a parameter: Citus allows no now() (STABLE) inside coalesce
        failing_since: raw<Date>`coalesce(failing_since, ${attemptAt.toISOString()}::timestamptz)`,
      })
      .where("id", "=", c.endpoint_id)
      .where("organization_id", "=", c.organization_id)
      .execute();
    await query(tx)
      .updateTable("webhook_deliveries")
      .set({ status: "failed", next_attempt_at: null, last_error: "endpoint disabled: the receiver answered HTTP 410 Gone", updated_at: raw<Date>`now()` })
      .where("endpoint_id", "=", c.endpoint_id)
      .where("organization_id", "=", c.organization_id)
      .where("status", "=", "pending")
      .where(leaseFree("webhook_deliveries"))
      .execute();
    return "failed";
  });
}
