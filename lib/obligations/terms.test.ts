import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MAX_DATE_YEAR, MIN_DATE_YEAR, ZDate } from "@/lib/schemas/common";
import { MAX_DUE_DAYS } from "@/lib/schemas/obligations";
import { addDays, evaluateTerms, summaryStatus, termAmounts, TermsError, validateTerms, type ConditionState, type TermSpec } from "./terms";

// Property tests of the pure payment-terms engine (no server involved).

const dateArb = fc.integer({ min: 0, max: 3650 }).map((n) => addDays("2024-01-01", n));
const amountArb = fc.bigInt({ min: 1n, max: 9223372036854775807n });

// Splits 10000 basis points into n positive parts.
const bpSplitArb = (n: number) =>
  fc.uniqueArray(fc.integer({ min: 1, max: 9999 }), { minLength: n - 1, maxLength: n - 1 }).map((cuts) => {
    const s = [0, ...cuts.sort((a, b) => a - b), 10000];
    return s.slice(1).map((v, i) => v - s[i]);
  });

const triggerArb = (conditionIds: string[]) =>
  fc.oneof(
    fc.constant({ triggerType: "immediately" as const }),
    dateArb.map((d) => ({ triggerType: "specific_date" as const, triggerDate: d })),
    ...(conditionIds.length ? [fc.constantFrom(...conditionIds).map((id) => ({ triggerType: "condition_satisfied" as const, conditionId: id }))] : []),
  );
const dueArb = fc.oneof(
  fc.constant({ dueRule: "immediately" as const }),
  dateArb.map((d) => ({ dueRule: "specific_date" as const, dueDate: d })),
  fc.integer({ min: 1, max: 36500 }).map((n) => ({ dueRule: "days_after_trigger" as const, dueDays: n })),
);

const conditionsArb = fc
  .array(fc.record({ status: fc.constantFrom("waiting", "satisfied", "waived"), satisfiedOn: dateArb }), { maxLength: 4 })
  .map((cs) =>
    cs.map(
      (c, i): ConditionState => ({ id: `c${i}`, status: c.status as ConditionState["status"], satisfiedOn: c.status === "waiting" ? null : c.satisfiedOn }),
    ),
  );

// A valid scenario: an amount, conditions and terms that add up, in one of three layouts:
// percentage terms over 10000 bp; fixed terms summing to the amount; or percentage terms
// over P < 10000 bp plus one fixed term carrying amount - floor(amount x P / 10000).
const scenarioArb = fc
  .record({
    amount: amountArb,
    conditions: conditionsArb,
    layout: fc.constantFrom("percentage", "fixed", "mixed"),
    n: fc.integer({ min: 1, max: 5 }),
  })
  .chain(({ amount, conditions, layout, n }) => {
    const ids = conditions.map((c) => c.id);
    return fc
      .record({
        split: bpSplitArb(n + 1),
        cuts: fc.uniqueArray(fc.bigInt({ min: 1n, max: amount }), { maxLength: n - 1 }),
        schedule: fc.array(fc.record({ trigger: triggerArb(ids), due: dueArb }), { minLength: n + 1, maxLength: n + 1 }),
        order: fc.shuffledSubarray(
          Array.from({ length: n + 1 }, (_, i) => i * 3 + 1),
          { minLength: n + 1, maxLength: n + 1 },
        ),
        registeredOn: dateArb,
        deadline: dateArb,
        today: dateArb,
      })
      .map(({ split, cuts, schedule, order, registeredOn, deadline, today }) => {
        const at = (i: number) => ({ sequence: order[i], ...schedule[i].trigger, ...schedule[i].due });
        const terms: TermSpec[] = [];
        if (layout === "percentage") {
          // n + 1 parts of 10000 bp
          for (const [i, bp] of split.entries()) terms.push({ ...at(i), amountType: "percentage", percentageBasisPoints: bp });
        } else if (layout === "fixed") {
          const points = [0n, ...cuts.filter((c) => c < amount).sort((a, b) => (a < b ? -1 : 1)), amount];
          for (const [i, p] of points.slice(1).entries()) terms.push({ ...at(i), amountType: "fixed", fixedAmountMinor: p - points[i] });
        } else {
          // the first n parts as percentages (P < 10000), the rest as one fixed term
          const pct = split.slice(0, n);
          const p = BigInt(pct.reduce((a, b) => a + b, 0));
          for (const [i, bp] of pct.entries()) terms.push({ ...at(i), amountType: "percentage", percentageBasisPoints: bp });
          const rest = amount - (amount * p) / 10000n;
          terms.push({ ...at(n), amountType: "fixed", fixedAmountMinor: rest });
        }
        return { amount, conditions, terms, registeredOn, deadline, today };
      });
  });

describe("payment terms engine", () => {
  it("percentage terms over 10000 bp always sum to the amount, each at least its floor", () => {
    fc.assert(
      fc.property(amountArb, fc.integer({ min: 1, max: 6 }).chain(bpSplitArb), fc.infiniteStream(fc.integer({ min: 1, max: 1000 })), (amount, split, seqs) => {
        const seqSet = new Set<number>();
        const terms: TermSpec[] = split.map((bp) => {
          let s = seqs.next().value as number;
          while (seqSet.has(s)) s++;
          seqSet.add(s);
          return { sequence: s, amountType: "percentage", percentageBasisPoints: bp, triggerType: "immediately", dueRule: "immediately" };
        });
        const amounts = termAmounts(amount, terms);
        expect(amounts.reduce((a, b) => a + b, 0n)).toBe(amount);
        const last = terms.reduce((m, t, i) => (t.sequence > terms[m].sequence ? i : m), 0);
        amounts.forEach((a, i) => {
          const floor = (amount * BigInt(terms[i].percentageBasisPoints!)) / 10000n;
          if (i === last) {
            expect(a >= floor).toBe(true);
            expect(a - floor < BigInt(terms.length)).toBe(true); // the remainder is only rounding loss
          } else expect(a).toBe(floor);
        });
      }),
    );
  });

  it("valid scenarios: terms sum to the amount, due <= payable <= amount, and recalculation is deterministic", () => {
    fc.assert(
      fc.property(scenarioArb, ({ amount, conditions, terms, registeredOn, deadline, today }) => {
        const ids = new Set(conditions.map((c) => c.id));
        let valid = true;
        try {
          validateTerms(amount, terms, ids);
        } catch (e) {
          // only a zero-amount percentage term (tiny amounts) may be refused
          expect(e).toBeInstanceOf(TermsError);
          expect((e as TermsError).message).toMatch(/positive amount/);
          valid = false;
        }
        const input = { amountMinor: amount, registeredOn, deadline, today, terms, conditions };
        const ev = evaluateTerms(input);
        expect(ev.terms.reduce((a, t) => a + t.amountMinor, 0n)).toBe(amount);
        if (valid) expect(ev.terms.every((t) => t.amountMinor > 0n)).toBe(true);
        expect(ev.payableMinor >= 0n && ev.payableMinor <= amount).toBe(true);
        expect(ev.dueMinor >= 0n && ev.dueMinor <= ev.payableMinor).toBe(true);
        expect(evaluateTerms(structuredClone(input))).toEqual(ev);
        for (const t of ev.terms) {
          if (t.due) expect(t.triggered).toBe(true);
          if (t.triggered) expect(t.triggeredOn! <= today).toBe(true);
          if (t.triggerType === "condition_satisfied") {
            const c = conditions.find((x) => x.id === t.conditionId)!;
            expect(t.triggeredOn).toBe(c.status === "waiting" ? null : c.satisfiedOn);
          }
          if (t.dueRule === "days_after_trigger" && t.triggeredOn) expect(t.payableOn).toBe(addDays(t.triggeredOn, t.dueDays!));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("payable and due only grow as time passes and as conditions are satisfied", () => {
    fc.assert(
      fc.property(scenarioArb, dateArb, ({ amount, conditions, terms, registeredOn, deadline, today }, later) => {
        const a = evaluateTerms({ amountMinor: amount, registeredOn, deadline, today, terms, conditions });
        // biome-ignore lint/complexity/useMathMinMax: ISO dates are strings; Math.max would turn them into NaN
        const laterDay = later > today ? later : today;
        const b = evaluateTerms({ amountMinor: amount, registeredOn, deadline, today: laterDay, terms, conditions });
        expect(b.payableMinor >= a.payableMinor).toBe(true);
        expect(b.dueMinor >= a.dueMinor).toBe(true);
        const satisfiedAll = conditions.map((c) => (c.status === "waiting" ? { ...c, status: "satisfied" as const, satisfiedOn: registeredOn } : c));
        const c = evaluateTerms({ amountMinor: amount, registeredOn, deadline, today: laterDay, terms, conditions: satisfiedAll });
        if (registeredOn <= laterDay) expect(c.payableMinor >= b.payableMinor).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("terms that do not add up, or reference unknown conditions, are a mismatch; malformed ones invalid", () => {
    fc.assert(
      fc.property(amountArb, fc.integer({ min: 1, max: 9999 }), (amount, bp) => {
        const t: TermSpec = { sequence: 1, amountType: "percentage", percentageBasisPoints: bp, triggerType: "immediately", dueRule: "immediately" };
        expect(() => validateTerms(amount, [t], new Set())).toThrow(TermsError);
      }),
    );
    const base = { triggerType: "immediately", dueRule: "immediately" } as const;
    const mismatch = (f: () => void) => {
      try {
        f();
        throw new Error("expected a TermsError");
      } catch (e) {
        return (e as TermsError).kind;
      }
    };
    expect(mismatch(() => validateTerms(100n, [{ sequence: 1, amountType: "fixed", fixedAmountMinor: 99n, ...base }], new Set()))).toBe("mismatch");
    expect(mismatch(() => validateTerms(100n, [{ sequence: 1, amountType: "fixed", fixedAmountMinor: 101n, ...base }], new Set()))).toBe("mismatch");
    expect(
      mismatch(() =>
        validateTerms(
          100n,
          [{ sequence: 1, amountType: "fixed", fixedAmountMinor: 100n, triggerType: "condition_satisfied", conditionId: "x", dueRule: "immediately" }],
          new Set(["y"]),
        ),
      ),
    ).toBe("mismatch");
    expect(
      mismatch(() =>
        validateTerms(
          100n,
          [
            { sequence: 1, amountType: "fixed", fixedAmountMinor: 50n, ...base },
            { sequence: 1, amountType: "fixed", fixedAmountMinor: 50n, ...base },
          ],
          new Set(),
        ),
      ),
    ).toBe("invalid");
    expect(mismatch(() => validateTerms(100n, [{ sequence: 1, amountType: "fixed", ...base }], new Set()))).toBe("invalid");
    expect(
      mismatch(() =>
        validateTerms(100n, [{ sequence: 1, amountType: "fixed", fixedAmountMinor: 100n, triggerType: "specific_date", dueRule: "immediately" }], new Set()),
      ),
    ).toBe("invalid");
    expect(
      mismatch(() =>
        validateTerms(
          100n,
          [{ sequence: 1, amountType: "fixed", fixedAmountMinor: 100n, triggerType: "immediately", dueRule: "days_after_trigger" }],
          new Set(),
        ),
      ),
    ).toBe("invalid");
  });

  it("worked example: 30% now, 70% 14 days after acceptance; the remainder goes to the last percentage term", () => {
    const terms: TermSpec[] = [
      {
        sequence: 2,
        amountType: "percentage",
        percentageBasisPoints: 7000,
        triggerType: "condition_satisfied",
        conditionId: "acc",
        dueRule: "days_after_trigger",
        dueDays: 14,
      },
      { sequence: 1, amountType: "percentage", percentageBasisPoints: 3000, triggerType: "immediately", dueRule: "immediately" },
    ];
    expect(termAmounts(1001n, terms)).toEqual([701n, 300n]); // 700.7 + 300.3: remainder 1 to sequence 2
    validateTerms(1001n, terms, new Set(["acc"]));
    const waiting = evaluateTerms({
      amountMinor: 1001n,
      registeredOn: "2026-01-10",
      deadline: "2026-03-01",
      today: "2026-01-20",
      terms,
      conditions: [{ id: "acc", status: "waiting" }],
    });
    expect([waiting.payableMinor, waiting.dueMinor]).toEqual([300n, 300n]);
    expect(waiting.terms[0]).toMatchObject({ triggeredOn: null, payableOn: null });
    const satisfied = evaluateTerms({
      amountMinor: 1001n,
      registeredOn: "2026-01-10",
      deadline: "2026-03-01",
      today: "2026-01-20",
      terms,
      conditions: [{ id: "acc", status: "satisfied", satisfiedOn: "2026-01-15" }],
    });
    expect([satisfied.payableMinor, satisfied.dueMinor]).toEqual([1001n, 300n]);
    expect(satisfied.terms[0]).toMatchObject({ triggeredOn: "2026-01-15", payableOn: "2026-01-29" });
  });

  it("no terms: one implicit term, payable at once, due on the deadline", () => {
    const before = evaluateTerms({ amountMinor: 500n, registeredOn: "2026-01-01", deadline: "2026-02-01", today: "2026-01-31", terms: [], conditions: [] });
    expect([before.payableMinor, before.dueMinor]).toEqual([500n, 0n]);
    const on = evaluateTerms({ amountMinor: 500n, registeredOn: "2026-01-01", deadline: "2026-02-01", today: "2026-02-01", terms: [], conditions: [] });
    expect([on.payableMinor, on.dueMinor]).toEqual([500n, 500n]);
  });

  it("summary status is satisfied only when every condition is satisfied or waived", () => {
    expect(summaryStatus([])).toBe("satisfied");
    expect(
      summaryStatus([
        { id: "a", status: "waived" },
        { id: "b", status: "satisfied" },
      ]),
    ).toBe("satisfied");
    expect(
      summaryStatus([
        { id: "a", status: "waived" },
        { id: "b", status: "waiting" },
      ]),
    ).toBe("pending");
  });
});

describe("addDays", () => {
  // The calendar as JavaScript's Date counts it (UTC), the reference the integer arithmetic must equal.
  const viaDate = (date: string, days: number) => {
    const d = new Date(`${date}T00:00:00.000Z`);
    d.setUTCDate(d.getUTCDate() + days);
    return d.toISOString().slice(0, 10);
  };

  it("equals the Date calendar for every fifth day of 1900-2199 and offsets across months, leap days and centuries", () => {
    let checked = 0;
    for (let t = Date.UTC(1900, 0, 1); t < Date.UTC(2200, 0, 1); t += 5 * 86_400_000) {
      const date = new Date(t).toISOString().slice(0, 10);
      for (const k of [0, 1, -1, 14, 28, 30, 59, 60, 365, 366, -400, 36_524, -36_525]) {
        if (addDays(date, k) !== viaDate(date, k)) expect(`${date} + ${k} = ${addDays(date, k)}`).toBe(viaDate(date, k));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(280_000);
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2100-02-28", 1)).toBe("2100-03-01");
    expect(addDays("2000-02-28", 1)).toBe("2000-02-29");
  });

  it("rolls a day beyond the month's end over as a Date does, and refuses what is not a date", () => {
    for (const d of ["2026-02-30", "2025-02-29", "2026-04-31"]) expect(addDays(d, 1)).toBe(viaDate(d, 1));
    for (const bad of ["2026-13-01", "2026-00-10", "2026-02-32", "abcd-ef-gh", "2026-1-01", ""]) expect(() => addDays(bad, 1)).toThrow(RangeError);
  });

  // The proof behind the date range of lib/schemas/common.ts: no accepted date plus (or
  // minus) the largest due_days leaves the years addDays can write, so none is a 500.
  it("keeps every accepted date plus or minus MAX_DUE_DAYS inside the years 0000-9999", () => {
    expect(addDays(`${MAX_DATE_YEAR}-12-31`, MAX_DUE_DAYS)).toBe("3099-12-07");
    expect(addDays(`${MIN_DATE_YEAR}-01-01`, -MAX_DUE_DAYS)).toBe("1800-01-25");
    expect(() => addDays("9999-12-31", 1)).toThrow(RangeError);
    expect(ZDate.safeParse(`${MAX_DATE_YEAR}-12-31`).success && !ZDate.safeParse(`${MAX_DATE_YEAR + 1}-01-01`).success).toBe(true);
  });
});
