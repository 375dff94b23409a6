import { sql as raw } from "kysely";
import { db, transaction, type Tx } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { env } from "@/lib/env";
import { stopping } from "@/lib/maintenance/shutdown";
import { recordEvent } from "@/lib/events/record-event";
import type { CronPrincipal } from "@/lib/auth/principal";
import { fromDate, todayUtc } from "@/lib/schemas/common";
import { loadObligationsByIds, type LoadedObligation } from "@/lib/obligations/load";
import { termSpecOf } from "@/lib/obligations/evaluate";
import { toObligationProjection } from "@/lib/obligations/view";
import { implicitTerm, type ConditionState, type EvaluatedTerm } from "@/lib/obligations/terms";
import { eventTypeOf, planScheduled, type DueItem, type ScheduledEventType } from "@/lib/scheduler/plan";
import { query } from "@/lib/db/query";
import { sweepReminders } from "@/lib/reminders/sweep-reminders";
import { sendDueReminders } from "@/lib/reminders/send-due-reminders";

// The scheduler sweep. Any number of sweepers (the in-process interval of every instance,
// overlapping cron calls) run it at once:
//   0. the organizations with obligations due, the most overdue first (a read that crosses
//      organizations, every shard on Citus), then organization by organization, one batch
//      each per round, rounds until no organization filled a batch (docs/scaling.md);
//   1. claim: one statement takes a bounded batch of the organization's obligations whose
//      next_scheduled_on is today (UTC) or earlier, FOR UPDATE SKIP LOCKED: a row is swept by
//      one sweeper; every statement of the batch names the organization (one shard on Citus);
//   2. for each, lib/scheduler/plan.ts says what is due; the due items are marked in
//      scheduled_event_marks (ON CONFLICT DO NOTHING: the backstop) and those whose mark is
//      new are recorded as events (audit trail + webhook outbox) in the same transaction,
//      a few statements per batch whatever its size;
//   2b. reminder steps reached (lib/reminders/sweep-reminders.ts), in the same claim;
//   3. next_scheduled_on becomes the next date anything can happen (NULL: never);
//   4. commit, per batch: a sweeper that dies (kill -9) rolls back its open batch only, whose
//      rows the next sweep claims again. Loops until nothing is due or the budget is spent;
//   5. then the email reminders due are sent (lib/reminders/send-due-reminders.ts).
export type SweepSummary = {
  claimed: number;
  emitted: Record<ScheduledEventType, number>;
  duration_ms: number;
  more: boolean; // stopped by the budget while obligations were still due
};

export type SweepOptions = {
  batchSize?: number;
  maxBatches?: number;
  budgetMs?: number;
  until?: () => boolean; // stop early (SIGTERM)
};

const SYSTEM: CronPrincipal = { kind: "cron" };

const emptyCounts = (): Record<ScheduledEventType, number> => ({
  "obligation.term_payable": 0,
  "obligation.due": 0,
  "obligation.overdue": 0,
  "payment_request.expiring": 0,
  "promise.kept": 0,
  "promise.broken": 0,
});

export async function sweepScheduled(opts: SweepOptions = {}): Promise<SweepSummary> {
  const started = Date.now();
  const batchSize = opts.batchSize ?? env().SCHEDULER_BATCH_SIZE;
  const maxBatches = opts.maxBatches ?? 50;
  const budgetMs = opts.budgetMs ?? 20_000;
  const summary: SweepSummary = { claimed: 0, emitted: emptyCounts(), duration_ms: 0, more: false };
  rounds: for (;;) {
    const organizations = await organizationsDue(todayUtc());
    let full = false;
    for (const organizationId of organizations) {
      // maxBatches full batches' worth of obligations: an organization's batch is often short.
      if (summary.claimed >= maxBatches * batchSize || Date.now() - started >= budgetMs || opts.until?.() || stopping()) {
        summary.more = true;
        break rounds;
      }
      const claimed = await transaction((tx) => sweepBatch(tx, { organizationId, batchSize, emitted: summary.emitted }));
      summary.claimed += claimed;
      if (claimed >= batchSize) full = true;
    }
    // Done when every organization's batch came back short: drained, or the rest is another sweeper's.
    if (!full) break;
  }
  // Email reminders the claims made due (and retries whose time came): lib/reminders.
  if (env().SMTP_URL && !stopping()) await sendDueReminders({ until: () => opts.until?.() === true || stopping() });
  summary.duration_ms = Date.now() - started;
  return summary;
}

// How many organizations one round visits; the rest wait for the next round or sweep.
const ORGANIZATIONS_PER_ROUND = 200;

// The organizations with obligations due today or earlier, the longest waiting first: read on
// the plain handle, outside any claim (obligations_next_scheduled_idx).
async function organizationsDue(today: string): Promise<string[]> {
  const rows = await query(db())
    .selectFrom("obligations")
    .select("organization_id")
    .where("next_scheduled_on", "<=", raw<Date>`${today}::date`)
    .groupBy("organization_id")
    .orderBy(raw`min(next_scheduled_on)`)
    .limit(ORGANIZATIONS_PER_ROUND)
    .execute();
  return rows.map((r) => r.organization_id);
}

// One batch of one organization in one transaction; returns how many obligations it claimed.
type SweepBatchInput = { organizationId: string; batchSize: number; emitted: Record<ScheduledEventType, number> };

async function sweepBatch(tx: Tx, { organizationId, batchSize, emitted }: SweepBatchInput): Promise<number> {
  const now = new Date();
  const today = todayUtc();
  const ids = await query(tx)
    .selectFrom("obligations")
    .select("id")
    .where("organization_id", "=", organizationId)
    .where("next_scheduled_on", "<=", raw<Date>`${today}::date`)
    .orderBy("next_scheduled_on")
    .limit(batchSize)
    .forUpdate()
    .skipLocked()
    .execute();
  if (ids.length === 0) return 0;
  const rows = await loadObligationsByIds(tx, { organizationId, ids: ids.map((r) => r.id) });
  // Conditions satisfied or waived after registration (their events): as registered, waiting.
  const later = await query(tx)
    .selectFrom("events")
    .select(["obligation_id", raw<string>`data->'detail'->>'condition_id'`.as("condition_id")])
    .where("organization_id", "=", organizationId)
    .where(
      "obligation_id",
      "in",
      rows.map((r) => r.id),
    )
    .where("type", "in", ["obligation.condition_satisfied", "obligation.condition_waived"])
    .execute();
  const satisfiedLater = new Set(later.map((r) => `${r.obligation_id}:${r.condition_id}`));
  const nexts: (string | null)[] = [];
  const candidates: { o: LoadedObligation; item: DueItem; eventId: string }[] = [];
  for (const row of rows) {
    const o: LoadedObligation = row;
    const conditions = o.conditions.map(
      (c): ConditionState => ({ id: c.id, status: c.status as ConditionState["status"], satisfiedOn: c.satisfiedOn ? fromDate(c.satisfiedOn) : null }),
    );
    const plan = planScheduled({
      today,
      now,
      registeredOn: fromDate(o.createdAt),
      deadline: fromDate(o.deadline),
      amountMinor: o.amountMinor,
      reconciled: o.status === "RECONCILED",
      terms: o.paymentTerms.map(termSpecOf),
      conditions,
      conditionsAtRegistration: conditions.map((c) => (satisfiedLater.has(`${o.id}:${c.id}`) ? { id: c.id, status: "waiting", satisfiedOn: null } : c)),
      paymentRequest: o.paymentRequest
        ? {
            id: o.paymentRequest.id,
            issueNumber: o.paymentRequest.issueNumber,
            expiresAt: o.paymentRequest.expiresAt,
            revoked: o.paymentRequest.revokedAt !== null,
          }
        : null,
      overdueWaits: o.disputeStatus === "open",
      promise:
        o.promiseStatus === "open" && o.promiseDate && o.promiseMadeAt
          ? {
              date: fromDate(o.promiseDate),
              amountMinor: o.promiseAmountMinor ?? 0n,
              madeAt: o.promiseMadeAt,
              baselineMinor: o.promiseBaselineMinor ?? 0n,
              settledMinor: o.allocatedMinor,
            }
          : null,
    });
    for (const item of plan.due) candidates.push({ o, item, eventId: newId() });
    nexts.push(plan.next);
  }
  if (candidates.length > 0) {
    // The marks of what was emitted before (by this or another sweeper) already exist: only
    // the new ones come back, and only those become events.
    // All of the batch's obligations are the organization's (the claim names it).
    const fresh = await query(tx)
      .insertInto("scheduled_event_marks")
      .columns(["organization_id", "obligation_id", "kind", "key", "event_id"])
      .expression((k) =>
        k
          .selectFrom(
            raw<{ obligation_id: string; kind: string; key: string; event_id: string }>`unnest(${candidates.map((c) => c.o.id)}::uuid[],
              ${candidates.map((c) => c.item.kind)}::text[], ${candidates.map((c) => c.item.key)}::text[], ${candidates.map((c) => c.eventId)}::uuid[])`.as<"m">(
              raw`m(obligation_id, kind, key, event_id)`,
            ),
          )
          .select([raw<string>`${organizationId}::uuid`.as("organization_id"), "m.obligation_id", "m.kind", "m.key", "m.event_id"]),
      )
      .onConflict((c) => c.doNothing())
      .returning(raw<string>`event_id::text`.as("event_id"))
      .execute();
    const isFresh = new Set(fresh.map((r) => r.event_id));
    const projections = new Map<string, Projection>();
    const byOrg = new Map<string, { id: string; type: ScheduledEventType; obligationId: string; data: Record<string, unknown>; createdAt: Date }[]>();
    const decided: { o: LoadedObligation; outcome: "kept" | "broken" }[] = [];
    // An obligation's events one millisecond apart in plan order: the audit trail and the
    // payloads keep the order (due, then overdue 1, 7, 30) that one sweep's events would
    // otherwise share.
    const ticks = new Map<string, number>();
    for (const { o, item, eventId } of candidates) {
      if (!isFresh.has(eventId)) continue;
      if (item.kind === "promise") decided.push({ o, outcome: item.outcome });
      const tick = ticks.get(o.id) ?? 0;
      ticks.set(o.id, tick + 1);
      let projection = projections.get(o.id);
      if (!projection) {
        projection = toObligationProjection(o, today);
        projections.set(o.id, projection);
      }
      const list = byOrg.get(o.organizationId) ?? [];
      byOrg.set(o.organizationId, list);
      list.push({
        id: eventId,
        type: eventTypeOf(item),
        obligationId: o.id,
        data: { obligation: projection, ...eventData(item, projection, o), detail: auditDetail(item, o) },
        createdAt: new Date(now.getTime() + tick),
      });
    }
    // The promise's status on the obligation (no version bump: the clock's, like its events).
    const decidedAt = new Date();
    for (const outcome of ["kept", "broken"] as const) {
      const ids = decided.filter((d) => d.outcome === outcome).map((d) => d.o.id);
      if (ids.length === 0) continue;
      await query(tx)
        .updateTable("obligations")
        .set({ promise_status: outcome, promise_decided_at: decidedAt })
        .where("organization_id", "=", organizationId)
        .where("id", "in", ids)
        .where("promise_status", "=", "open")
        .execute();
    }
    for (const [organizationId, events] of byOrg) {
      await recordEvent(tx, { organizationId, principal: SYSTEM, events });
      for (const e of events) emitted[e.type]++;
    }
  }
  // Reminder steps (lib/reminders/sweep-reminders.ts): same claim, same transaction.
  const reminderNexts = await sweepReminders(tx, { rows, today, now });
  rows.forEach((r, i) => {
    const n = reminderNexts.get(r.id) ?? null;
    if (n !== null && (nexts[i] === null || n < (nexts[i] as string))) nexts[i] = n;
  });
  await query(tx)
    .updateTable("obligations as o")
    // Dates as a date[] parameter: Citus refuses a cast of a column (text to date, STABLE) in an UPDATE.
    .from(raw<{ id: string; next: Date | null }>`unnest(${rows.map((r) => r.id)}::uuid[], ${nexts}::date[])`.as<"v">(raw`v(id, next)`))
    .set({ next_scheduled_on: raw<Date | null>`v.next` })
    .where("o.organization_id", "=", organizationId)
    .whereRef("o.id", "=", "v.id")
    .execute();
  return ids.length;
}

type Projection = ReturnType<typeof toObligationProjection>;

// data.term: the term as the projection shows it; the implicit term of an obligation
// without payment terms has no id (and is shown like a declared one otherwise).
function wireTerm(t: EvaluatedTerm, projection: Projection): Record<string, unknown> {
  const declared = projection.payment_terms.find((p) => p.sequence === t.sequence);
  if (declared && projection.payment_terms.length > 0) return declared;
  const implicit = implicitTerm(projection.deadline);
  return {
    sequence: implicit.sequence,
    label: "",
    amount_type: implicit.amountType,
    percentage_basis_points: implicit.percentageBasisPoints,
    amount_minor: t.amountMinor.toString(),
    trigger_type: implicit.triggerType,
    due_rule: implicit.dueRule,
    due_date: implicit.dueDate,
    ...(t.triggeredOn ? { triggered_on: t.triggeredOn } : {}),
    ...(t.payableOn ? { payable_on: t.payableOn } : {}),
  };
}

function eventData(item: DueItem, projection: Projection, o: LoadedObligation): Record<string, unknown> {
  switch (item.kind) {
    case "promise":
      return { promise: promiseData(o, item.outcome) };
    case "term_payable":
    case "due":
      return { term: wireTerm(item.term, projection) };
    case "overdue":
      return { days_overdue: item.daysOverdue };
    case "expiring":
      return {
        payment_request: { id: item.paymentRequestId, obligation_id: projection.id, expires_at: item.expiresAt.toISOString(), revoked: false },
      };
  }
}

// Audit-only facts (the dashboard's audit trail line).
function auditDetail(item: DueItem, o: LoadedObligation): Record<string, unknown> {
  switch (item.kind) {
    case "promise":
      return { date: fromDate(o.promiseDate), amount_minor: (o.promiseAmountMinor ?? 0n).toString() };
    case "term_payable":
      return { sequence: item.term.sequence, amount_minor: item.term.amountMinor.toString(), triggered_on: item.on };
    case "due":
      return { sequence: item.term.sequence, amount_minor: item.term.amountMinor.toString(), payable_on: item.on };
    case "overdue":
      return { days_overdue: item.daysOverdue };
    case "expiring":
      return { expires_at: item.expiresAt.toISOString(), issue_number: item.issueNumber };
  }
}

// data.promise of promise.kept / promise.broken: the promise as the detail shows it, decided.
function promiseData(o: LoadedObligation, outcome: "kept" | "broken") {
  return {
    date: fromDate(o.promiseDate),
    amount_minor: (o.promiseAmountMinor ?? 0n).toString(),
    status: outcome,
    made_at: o.promiseMadeAt ? o.promiseMadeAt.toISOString() : null,
    settled_since_minor: (o.allocatedMinor - (o.promiseBaselineMinor ?? 0n)).toString(),
  };
}
