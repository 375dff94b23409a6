// The payment-terms engine: pure functions, no database, no clock (today is an input).
//
// Rules (docs/obligations.md, "Payment terms"):
// - A term's amount is `fixed_amount_minor`, or floor(amount x basis_points / 10000); the
//   rounding remainder of the percentage terms (floor of their exact total minus the sum of
//   their floors) goes to the last percentage term by `sequence`. Terms must add up to the
//   obligation amount exactly.
// - With no terms, one implicit term applies: trigger `immediately`, due on the deadline.
// - Trigger: immediately -> the registration date; specific_date -> trigger_date;
//   condition_satisfied -> the condition's satisfied_on (a waived condition counts from
//   the date it was waived, which is stored as its satisfied_on).
// - Due: immediately -> payable_on = triggered_on; specific_date -> due_date;
//   days_after_trigger -> triggered_on + due_days.
// - payable_minor = sum of terms whose trigger date has been reached; due_minor = sum of
//   triggered terms whose payable_on has been reached (so due <= payable <= amount).
// Dates are ISO calendar strings (YYYY-MM-DD), which compare correctly as strings.

export type AmountType = "fixed" | "percentage";
export type TriggerType = "immediately" | "specific_date" | "condition_satisfied";
export type DueRule = "immediately" | "specific_date" | "days_after_trigger";
export type ConditionStatus = "waiting" | "satisfied" | "waived";

export type TermSpec = {
  sequence: number;
  amountType: AmountType;
  fixedAmountMinor?: bigint | null;
  percentageBasisPoints?: number | null;
  triggerType: TriggerType;
  triggerDate?: string | null;
  conditionId?: string | null;
  dueRule: DueRule;
  dueDate?: string | null;
  dueDays?: number | null;
};

export type ConditionState = { id: string; status: ConditionStatus; satisfiedOn?: string | null };

export type EvaluatedTerm<T extends TermSpec = TermSpec> = T & {
  amountMinor: bigint;
  triggeredOn: string | null; // when the trigger fires (may be in the future); null while unknown
  payableOn: string | null; // the calculated due date; null while unknown
  triggered: boolean; // trigger date reached (<= today)
  due: boolean; // triggered and payable_on reached
};

export type Evaluation<T extends TermSpec = TermSpec> = {
  terms: EvaluatedTerm<T>[]; // in the order given
  payableMinor: bigint;
  dueMinor: bigint;
};

export class TermsError extends Error {
  constructor(
    readonly kind: "mismatch" | "invalid",
    message: string,
    readonly index?: number, // the offending term's position in the list given
    readonly field?: string, // the offending field (wire name)
  ) {
    super(message);
    this.name = "TermsError";
  }
}

const BP_DENOMINATOR = 10000n;

// Amounts of the terms, in the order given. Throws TermsError on missing amount fields.
export function termAmounts(amountMinor: bigint, terms: readonly TermSpec[]): bigint[] {
  const out: bigint[] = new Array(terms.length).fill(0n);
  let lastPct = -1;
  let pctBp = 0n;
  let pctFloors = 0n;
  terms.forEach((t, i) => {
    if (t.amountType === "fixed") {
      if (t.fixedAmountMinor === null || t.fixedAmountMinor === undefined) {
        throw new TermsError("invalid", `term ${t.sequence}: a fixed term needs fixed_amount_minor`);
      }
      out[i] = t.fixedAmountMinor;
    } else {
      if (t.percentageBasisPoints === null || t.percentageBasisPoints === undefined) {
        throw new TermsError("invalid", `term ${t.sequence}: a percentage term needs percentage_basis_points`);
      }
      const bp = BigInt(t.percentageBasisPoints);
      out[i] = (amountMinor * bp) / BP_DENOMINATOR; // bigint division floors for non-negatives
      pctBp += bp;
      pctFloors += out[i];
      if (lastPct < 0 || t.sequence > terms[lastPct].sequence) lastPct = i;
    }
  });
  if (lastPct >= 0) out[lastPct] += (amountMinor * pctBp) / BP_DENOMINATOR - pctFloors;
  return out;
}

// Structural validation of a set of terms against the amount and the known conditions.
// "invalid" = malformed term (422 validation_failed); "mismatch" = terms do not add up or
// reference an unknown condition (422 payment_terms_mismatch).
export function validateTerms(amountMinor: bigint, terms: readonly TermSpec[], conditionIds: ReadonlySet<string>): void {
  const seen = new Set<number>();
  terms.forEach((t, i) => {
    const bad = (field: string, message: string, kind: "invalid" | "mismatch" = "invalid") => new TermsError(kind, message, i, field);
    if (!Number.isInteger(t.sequence) || t.sequence < 1) throw bad("sequence", "must be an integer >= 1");
    if (seen.has(t.sequence)) throw bad("sequence", "sequence values must be unique");
    seen.add(t.sequence);
    if (t.amountType === "fixed" && t.fixedAmountMinor == null) throw bad("fixed_amount_minor", "required for a fixed term");
    if (t.amountType === "fixed" && t.percentageBasisPoints != null) throw bad("percentage_basis_points", "not allowed on a fixed term");
    if (t.amountType === "percentage" && t.percentageBasisPoints == null) throw bad("percentage_basis_points", "required for a percentage term");
    if (t.amountType === "percentage" && t.fixedAmountMinor != null) throw bad("fixed_amount_minor", "not allowed on a percentage term");
    if (t.triggerType === "specific_date" && !t.triggerDate) throw bad("trigger_date", "required for trigger specific_date");
    if (t.triggerType === "condition_satisfied") {
      if (!t.conditionId) throw bad("condition_key", "trigger condition_satisfied needs condition_key or condition_id");
      if (!conditionIds.has(t.conditionId)) throw bad("condition_key", "references an unknown condition", "mismatch");
    }
    if (t.dueRule === "specific_date" && !t.dueDate) throw bad("due_date", "required for due rule specific_date");
    if (t.dueRule === "days_after_trigger" && t.dueDays == null) throw bad("due_days", "required for due rule days_after_trigger");
  });
  if (terms.length === 0) return;
  const amounts = termAmounts(amountMinor, terms);
  const zero = amounts.findIndex((a) => a <= 0n);
  if (zero >= 0) throw new TermsError("mismatch", "every payment term must come to a positive amount", zero, "amount_minor");
  const total = amounts.reduce((a, b) => a + b, 0n);
  if (total !== amountMinor) {
    throw new TermsError("mismatch", `payment terms add up to ${total}, not to amount_minor ${amountMinor}`);
  }
}

// A calendar date (YYYY-MM-DD, proleptic Gregorian) plus a number of days, in integer
// arithmetic (days since 1970-01-01 there and back, H. Hinnant's civil-date algorithms):
// lists evaluate it for every term of every row, and a Date costs far more. A string that is
// not a date throws a RangeError, as a Date's toISOString would; a day beyond the month's
// end rolls over into the next month, as a Date does.
export function addDays(date: string, days: number): string {
  const y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  if (date.length !== 10 || date[4] !== "-" || date[7] !== "-" || !(m >= 1 && m <= 12) || !(d >= 1 && d <= 31) || !Number.isInteger(days)) {
    throw new RangeError(`addDays: not a date: ${date}`);
  }
  return fromDayNumber(dayNumber(y, m, d) + days);
}

function dayNumber(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function fromDayNumber(z: number): string {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  if (y < 0 || y > 9999) throw new RangeError("addDays: outside years 0000-9999");
  return `${String(y).padStart(4, "0")}-${m < 10 ? "0" : ""}${m}-${d < 10 ? "0" : ""}${d}`;
}

// The implicit term of an obligation without declared terms.
export const implicitTerm = (deadline: string): TermSpec => ({
  sequence: 1,
  amountType: "percentage",
  percentageBasisPoints: 10000,
  triggerType: "immediately",
  dueRule: "specific_date",
  dueDate: deadline,
});

// Recalculates every term: amount, triggered_on, payable_on, and the payable/due totals.
// `terms` empty -> the implicit term is evaluated (and returned) instead.
export function evaluateTerms<T extends TermSpec>(input: {
  amountMinor: bigint;
  registeredOn: string;
  deadline: string;
  today: string;
  terms: readonly T[];
  conditions: readonly ConditionState[];
}): Evaluation<T | TermSpec> {
  const terms: readonly (T | TermSpec)[] = input.terms.length ? input.terms : [implicitTerm(input.deadline)];
  const amounts = termAmounts(input.amountMinor, terms);
  const byId = new Map(input.conditions.map((c) => [c.id, c]));
  let payableMinor = 0n;
  let dueMinor = 0n;
  const out = terms.map((t, i) => {
    let triggeredOn: string | null = null;
    if (t.triggerType === "immediately") triggeredOn = input.registeredOn;
    else if (t.triggerType === "specific_date") triggeredOn = t.triggerDate ?? null;
    else {
      const c = t.conditionId ? byId.get(t.conditionId) : undefined;
      if (c && c.status !== "waiting" && c.satisfiedOn) triggeredOn = c.satisfiedOn;
    }
    let payableOn: string | null = null;
    if (triggeredOn !== null) {
      if (t.dueRule === "immediately") payableOn = triggeredOn;
      else if (t.dueRule === "specific_date") payableOn = t.dueDate ?? null;
      else if (t.dueDays !== null && t.dueDays !== undefined) payableOn = addDays(triggeredOn, t.dueDays);
    }
    const triggered = triggeredOn !== null && triggeredOn <= input.today;
    const due = triggered && payableOn !== null && payableOn <= input.today;
    if (triggered) payableMinor += amounts[i];
    if (due) dueMinor += amounts[i];
    return { ...t, amountMinor: amounts[i], triggeredOn, payableOn, triggered, due };
  });
  return { terms: out, payableMinor, dueMinor };
}

// Summary status of a set of conditions: satisfied when every one is satisfied or waived.
export function summaryStatus(conditions: readonly ConditionState[]): "pending" | "satisfied" {
  return conditions.every((c) => c.status !== "waiting") ? "satisfied" : "pending";
}
