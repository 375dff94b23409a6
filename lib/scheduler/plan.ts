// What the scheduler emits for one obligation on a given day, and when to look again.
// Pure: no database, no clock (today is an input). Dates are UTC calendar dates
// (YYYY-MM-DD strings, which compare correctly as strings).
//
// Rules (docs/webhooks.md, "Scheduled events"):
// - obligation.term_payable, per term: its trigger date has arrived (<= today) and the
//   term was not yet triggered on the registration date (that state is what
//   obligation.registered told). The terms engine is evaluated at the registration date
//   (with the conditions as registered: one satisfied or waived later counts as waiting,
//   whatever its satisfied_on) and at today.
// - obligation.due, per term: triggered and payable_on arrived, and not yet due on the
//   registration date. An obligation without payment terms has one implicit term
//   (triggered on registration, payable on the deadline).
// - obligation.overdue, per threshold of 1, 7 and 30 days: the deadline passed that many
//   days ago and the obligation is not RECONCILED. An obligation registered with its
//   deadline already past gets every threshold it has reached at the next sweep, in order,
//   as after downtime (docs/obligations.md, Lifecycle): registration does not tell overdue. Each once.
// - payment_request.expiring, per payment request and issue: from the UTC date 7 days
//   before expires_at, while the link is neither revoked nor expired and the obligation
//   is not RECONCILED.
// - While a dispute is open (`overdueWaits`), obligation.overdue waits: nothing is emitted nor
//   scheduled for it; once resolved, the thresholds passed meanwhile are emitted (each once).
// - promise.kept / promise.broken, once per promise (key: when it was made): kept as soon as
//   the settled amount has grown by the promised amount (a sweep sees it; every allocation
//   makes the obligation due for a sweep that day), else broken at the first sweep after
//   `date` + 3 days. Told even for a RECONCILED obligation.
// - A RECONCILED obligation emits nothing else any more (next = null).
// The caller marks what it emitted (kind + key) so that each is emitted exactly once.
import { addDays, evaluateTerms, type ConditionState, type EvaluatedTerm, type TermSpec } from "@/lib/obligations/terms";
import { present } from "@/lib/present";

export const OVERDUE_THRESHOLDS = [1, 7, 30] as const;
export const EXPIRING_DAYS_BEFORE = 7;
export const PROMISE_GRACE_DAYS = 3;

export type ScheduledEventType =
  | "obligation.term_payable"
  | "obligation.due"
  | "obligation.overdue"
  | "payment_request.expiring"
  | "promise.kept"
  | "promise.broken";

export function eventTypeOf(item: DueItem): ScheduledEventType {
  switch (item.kind) {
    case "term_payable":
      return "obligation.term_payable";
    case "due":
      return "obligation.due";
    case "overdue":
      return "obligation.overdue";
    case "expiring":
      return "payment_request.expiring";
    case "promise":
      return item.outcome === "kept" ? "promise.kept" : "promise.broken";
  }
}

export type PlanInput<T extends TermSpec = TermSpec> = {
  today: string;
  now: Date; // the instant of the sweep (a link that expired before it is not "expiring")
  registeredOn: string;
  deadline: string;
  amountMinor: bigint;
  reconciled: boolean;
  terms: readonly T[];
  conditions: readonly ConditionState[];
  // The conditions as registered: those satisfied or waived later (by a mutation) as waiting.
  // Defaults to `conditions`.
  conditionsAtRegistration?: readonly ConditionState[];
  paymentRequest: { id: string; issueNumber: number; expiresAt: Date; revoked: boolean } | null;
  overdueWaits?: boolean; // a dispute is open
  // The open promise: its date, amount, when it was made, and the settled amount then and now.
  promise?: { date: string; amountMinor: bigint; madeAt: Date; baselineMinor: bigint; settledMinor: bigint } | null;
};

export type DueItem<T extends TermSpec = TermSpec> =
  | { kind: "term_payable" | "due"; key: string; on: string; term: EvaluatedTerm<T | TermSpec> }
  | { kind: "overdue"; key: string; on: string; daysOverdue: number }
  | { kind: "expiring"; key: string; on: string; paymentRequestId: string; expiresAt: Date; issueNumber: number }
  | { kind: "promise"; key: string; on: string; outcome: "kept" | "broken" };

export type Plan<T extends TermSpec = TermSpec> = {
  due: DueItem<T>[]; // in the order of their dates (then terms by sequence, thresholds ascending)
  next: string | null; // the first date after today on which something may become due
};

const utcDate = (d: Date) => d.toISOString().slice(0, 10);

export function expiringOn(expiresAt: Date): string {
  return addDays(utcDate(expiresAt), -EXPIRING_DAYS_BEFORE);
}

// The open promise's outcome today, or the day to look again (the day it would be broken).
function planPromise(input: PlanInput): { item: DueItem | null; next: string | null } {
  const p = input.promise;
  if (!p) return { item: null, next: null };
  const key = String(p.madeAt.getTime());
  if (p.settledMinor - p.baselineMinor >= p.amountMinor) return { item: { kind: "promise", key, on: input.today, outcome: "kept" }, next: null };
  const brokenOn = addDays(p.date, PROMISE_GRACE_DAYS + 1);
  if (brokenOn <= input.today) return { item: { kind: "promise", key, on: brokenOn, outcome: "broken" }, next: null };
  return { item: null, next: brokenOn };
}

export function planScheduled<T extends TermSpec>(input: PlanInput<T>): Plan<T> {
  const promise = planPromise(input);
  if (input.reconciled) return { due: promise.item ? [promise.item] : [], next: promise.next };
  const { today } = input;
  const base = { amountMinor: input.amountMinor, registeredOn: input.registeredOn, deadline: input.deadline, terms: input.terms, conditions: input.conditions };
  const atRegistration = evaluateTerms({ ...base, conditions: input.conditionsAtRegistration ?? input.conditions, today: input.registeredOn }).terms;
  const now = evaluateTerms({ ...base, today }).terms;

  const due: DueItem<T>[] = [];
  let next: string | null = null;
  const later = (date: string | null) => {
    if (date !== null && date > today && (next === null || date < next)) next = date;
  };

  now.forEach((t, i) => {
    const key = String(t.sequence);
    const reg = atRegistration[i];
    if (!reg.triggered) {
      if (t.triggered) due.push({ kind: "term_payable", key, on: present(t.triggeredOn, "trigger date"), term: t });
      else later(t.triggeredOn);
    }
    if (!reg.due) {
      if (t.due) due.push({ kind: "due", key, on: present(t.payableOn, "payable date"), term: t });
      else {
        later(t.triggeredOn);
        // payable_on is known once the trigger date is: it may come after the trigger.
        if (t.payableOn !== null && t.triggeredOn !== null && t.payableOn > t.triggeredOn) later(t.payableOn);
      }
    }
  });

  if (promise.item) due.push(promise.item);
  later(promise.next);

  for (const days of input.overdueWaits ? [] : OVERDUE_THRESHOLDS) {
    const on = addDays(input.deadline, days);
    if (on <= today) due.push({ kind: "overdue", key: String(days), on, daysOverdue: days });
    else later(on);
  }

  const pr = input.paymentRequest;
  if (pr && !pr.revoked && pr.expiresAt.getTime() > input.now.getTime()) {
    const on = expiringOn(pr.expiresAt);
    if (on <= today)
      due.push({ kind: "expiring", key: `${pr.id}:${pr.issueNumber}`, on, paymentRequestId: pr.id, expiresAt: pr.expiresAt, issueNumber: pr.issueNumber });
    else later(on);
  }

  due.sort((a, b) => (a.on < b.on ? -1 : a.on > b.on ? 1 : 0));
  return { due, next };
}
