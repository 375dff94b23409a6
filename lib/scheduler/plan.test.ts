import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { addDays, type TermSpec } from "@/lib/obligations/terms";
import { planScheduled, type PlanInput } from "@/lib/scheduler/plan";
import { isChasingPaused } from "@/lib/obligations/chasing-paused";

const REG = "2026-03-10";
const at = (date: string) => new Date(`${date}T12:00:00.000Z`);

function input(over: Partial<PlanInput> = {}): PlanInput {
  return {
    today: REG,
    now: at(REG),
    registeredOn: REG,
    deadline: addDays(REG, 30),
    amountMinor: 10000n,
    reconciled: false,
    terms: [],
    conditions: [],
    paymentRequest: null,
    ...over,
  };
}

const keys = (p: ReturnType<typeof planScheduled>) => p.due.map((d) => `${d.kind}:${d.key}`);

describe("planScheduled", () => {
  it("an obligation without terms: due on the deadline, overdue at 1, 7 and 30 days", () => {
    expect(planScheduled(input())).toEqual({ due: [], next: addDays(REG, 30) });
    const onDeadline = planScheduled(input({ today: addDays(REG, 30) }));
    expect(keys(onDeadline)).toEqual(["due:1"]);
    expect(onDeadline.next).toBe(addDays(REG, 31));
    expect(keys(planScheduled(input({ today: addDays(REG, 31) })))).toEqual(["due:1", "overdue:1"]);
    // Caught up after downtime: everything passed, in date order, each once (the caller marks them).
    expect(keys(planScheduled(input({ today: addDays(REG, 90) })))).toEqual(["due:1", "overdue:1", "overdue:7", "overdue:30"]);
    expect(planScheduled(input({ today: addDays(REG, 90) })).next).toBeNull();
  });

  it("a deadline already past at registration: every threshold reached, in order, as after downtime (docs/obligations.md, Lifecycle)", () => {
    // Due was told by the registration (payable and due at once); overdue was not.
    expect(keys(planScheduled(input({ deadline: addDays(REG, -10) })))).toEqual(["overdue:1", "overdue:7"]);
    expect(planScheduled(input({ deadline: addDays(REG, -10) })).next).toBe(addDays(REG, 20));
    expect(keys(planScheduled(input({ deadline: addDays(REG, -31) })))).toEqual(["overdue:1", "overdue:7", "overdue:30"]);
    expect(planScheduled(input({ deadline: addDays(REG, -31) })).next).toBeNull();
    expect(keys(planScheduled(input({ deadline: addDays(REG, -1) })))).toEqual(["overdue:1"]);
    expect(keys(planScheduled(input({ deadline: REG })))).toEqual([]);
    expect(planScheduled(input({ deadline: REG })).next).toBe(addDays(REG, 1));
    expect(keys(planScheduled(input({ deadline: addDays(REG, -10), today: addDays(REG, 40) })))).toEqual(["overdue:1", "overdue:7", "overdue:30"]);
    expect(keys(planScheduled(input({ deadline: addDays(REG, -31), reconciled: true })))).toEqual([]);
  });

  it("terms: trigger and due dates after registration, a waiting condition waits, a satisfied one triggers", () => {
    const terms: TermSpec[] = [
      { sequence: 1, amountType: "percentage", percentageBasisPoints: 3000, triggerType: "immediately", dueRule: "days_after_trigger", dueDays: 5 },
      {
        sequence: 2,
        amountType: "percentage",
        percentageBasisPoints: 3000,
        triggerType: "specific_date",
        triggerDate: addDays(REG, 10),
        dueRule: "immediately",
      },
      {
        sequence: 3,
        amountType: "percentage",
        percentageBasisPoints: 4000,
        triggerType: "condition_satisfied",
        conditionId: "c1",
        dueRule: "days_after_trigger",
        dueDays: 3,
      },
    ];
    const waiting = input({ terms, conditions: [{ id: "c1", status: "waiting" }], deadline: addDays(REG, 60) });
    expect(planScheduled(waiting).next).toBe(addDays(REG, 5));
    expect(keys(planScheduled({ ...waiting, today: addDays(REG, 10) }))).toEqual(["due:1", "term_payable:2", "due:2"]);
    const satisfied = { ...waiting, conditions: [{ id: "c1", status: "satisfied" as const, satisfiedOn: addDays(REG, 12) }] };
    expect(keys(planScheduled({ ...satisfied, today: addDays(REG, 12) }))).toEqual(["due:1", "term_payable:2", "due:2", "term_payable:3"]);
    expect(planScheduled({ ...satisfied, today: addDays(REG, 12) }).next).toBe(addDays(REG, 15));
  });

  it("payment_request.expiring from 7 days before expires_at, never for a revoked or expired link", () => {
    const pr = { id: "p", issueNumber: 2, expiresAt: new Date(`${addDays(REG, 20)}T08:00:00.000Z`), revoked: false };
    expect(planScheduled(input({ paymentRequest: pr })).next).toBe(addDays(REG, 13));
    const p = planScheduled(input({ paymentRequest: pr, today: addDays(REG, 13), now: at(addDays(REG, 13)) }));
    expect(keys(p)).toEqual(["expiring:p:2"]);
    expect(keys(planScheduled(input({ paymentRequest: { ...pr, revoked: true }, today: addDays(REG, 13) })))).toEqual([]);
    expect(keys(planScheduled(input({ paymentRequest: pr, today: addDays(REG, 21), now: at(addDays(REG, 21)) })))).toEqual([]);
  });

  it("a reconciled obligation emits nothing and is never looked at again", () => {
    expect(planScheduled(input({ reconciled: true, today: addDays(REG, 90) }))).toEqual({ due: [], next: null });
  });

  // Any schedule of sweeps (daily, or with gaps of downtime, following `next`) emits the
  // same set as a daily sweep, each item once: no duplicate, no gap.
  it("property: sweeping with gaps emits exactly what sweeping daily emits, each once", () => {
    const term = fc.record({
      trigger: fc.constantFrom("immediately", "specific_date", "condition_satisfied"),
      triggerOffset: fc.integer({ min: -20, max: 60 }),
      dueRule: fc.constantFrom("immediately", "specific_date", "days_after_trigger"),
      dueOffset: fc.integer({ min: -20, max: 60 }),
      dueDays: fc.integer({ min: 1, max: 40 }),
    });
    fc.assert(
      fc.property(
        fc.array(term, { minLength: 0, maxLength: 3 }),
        fc.integer({ min: -40, max: 60 }),
        fc.option(fc.integer({ min: -5, max: 50 })),
        fc.array(fc.integer({ min: 1, max: 25 }), { minLength: 1, maxLength: 10 }),
        (ts, deadlineOffset, satisfiedOffset, gaps) => {
          const n = ts.length;
          const terms: TermSpec[] = ts.map((t, i) => ({
            sequence: i + 1,
            amountType: "fixed",
            fixedAmountMinor: 100n,
            triggerType: t.trigger as TermSpec["triggerType"],
            triggerDate: addDays(REG, t.triggerOffset),
            conditionId: "c",
            dueRule: t.dueRule as TermSpec["dueRule"],
            dueDate: addDays(REG, t.dueOffset),
            dueDays: t.dueDays,
          }));
          const satisfiedOn = satisfiedOffset === null ? null : addDays(REG, satisfiedOffset);
          const base = (today: string) =>
            input({
              today,
              now: at(today),
              deadline: addDays(REG, deadlineOffset),
              amountMinor: BigInt(Math.max(n, 1) * 100),
              terms,
              // The condition is known as satisfied from its date on (as a sweep would find it).
              conditions: [{ id: "c", status: satisfiedOn !== null && satisfiedOn <= today ? "satisfied" : "waiting", satisfiedOn }],
            });
          const run = (days: string[]) => {
            const seen: string[] = [];
            let next: string | null = REG;
            let prev = addDays(REG, -1);
            for (const d of days) {
              // Satisfying the condition (a mutation) sets next to the day it happened.
              if (satisfiedOn !== null && satisfiedOn > prev && satisfiedOn <= d && (next === null || satisfiedOn < next)) next = satisfiedOn;
              prev = d;
              if (next === null || next > d) continue;
              const p = planScheduled(base(d));
              for (const k of keys(p)) if (!seen.includes(k)) seen.push(k);
              next = p.next;
            }
            return seen;
          };
          const last = addDays(REG, 130);
          const daily: string[] = [];
          for (let d = REG; d <= last; d = addDays(d, 1)) daily.push(d);
          const sparse: string[] = [];
          let d = REG;
          for (let i = 0; d <= last; i++) {
            sparse.push(d);
            d = addDays(d, gaps[i % gaps.length]);
          }
          sparse.push(last);
          expect(new Set(run(sparse))).toEqual(new Set(run(daily)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("an open dispute holds obligation.overdue back; once resolved, every threshold passed meanwhile is due", () => {
    const day40 = addDays(REG, 40);
    const waiting = planScheduled(input({ today: day40, overdueWaits: true }));
    expect(keys(waiting)).toEqual(["due:1"]);
    expect(waiting.next).toBeNull();
    expect(keys(planScheduled(input({ today: day40 })))).toEqual(["due:1", "overdue:1", "overdue:7"]);
  });

  it("a promise is kept once the settled amount grew by its amount, else broken the day after date + 3", () => {
    const madeAt = at(REG);
    const promise = { date: addDays(REG, 5), amountMinor: 4000n, madeAt, baselineMinor: 1000n, settledMinor: 1000n };
    const open = planScheduled(input({ promise }));
    expect(keys(open)).toEqual([]);
    expect(open.next).toBe(addDays(REG, 9));
    expect(keys(planScheduled(input({ today: addDays(REG, 8), promise })))).toEqual([]);
    const broken = planScheduled(input({ today: addDays(REG, 9), promise }));
    expect(broken.due).toEqual([{ kind: "promise", key: String(madeAt.getTime()), on: addDays(REG, 9), outcome: "broken" }]);
    const kept = planScheduled(input({ today: addDays(REG, 2), promise: { ...promise, settledMinor: 5000n } }));
    expect(kept.due).toEqual([{ kind: "promise", key: String(madeAt.getTime()), on: addDays(REG, 2), outcome: "kept" }]);
    // Partly paid: not yet kept.
    expect(keys(planScheduled(input({ today: addDays(REG, 2), promise: { ...promise, settledMinor: 4999n } })))).toEqual([]);
    // A RECONCILED obligation still tells its promise.
    expect(planScheduled(input({ reconciled: true, promise: { ...promise, settledMinor: 5000n } })).due.map((d) => d.kind)).toEqual(["promise"]);
  });
});

describe("isChasingPaused", () => {
  const none = { disputeStatus: null, promiseStatus: null, promiseDate: null };
  it("an open dispute, or an open promise whose date has not passed", () => {
    expect(isChasingPaused(none, REG)).toBe(false);
    expect(isChasingPaused({ ...none, disputeStatus: "open" }, REG)).toBe(true);
    expect(isChasingPaused({ ...none, disputeStatus: "rejected" }, REG)).toBe(false);
    const promised = { ...none, promiseStatus: "open", promiseDate: new Date(`${REG}T00:00:00.000Z`) };
    expect(isChasingPaused(promised, REG)).toBe(true);
    expect(isChasingPaused(promised, addDays(REG, 1))).toBe(false);
    expect(isChasingPaused({ ...promised, promiseStatus: "broken" }, REG)).toBe(false);
  });
});
