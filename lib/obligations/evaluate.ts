import { fromDate, todayUtc } from "@/lib/schemas/common";
import type { TInvoiceRecord } from "@/lib/schemas/obligations";
import { addDays, evaluateTerms, summaryStatus, type ConditionState, type TermSpec } from "@/lib/obligations/terms";
import type { LoadedObligation } from "@/lib/obligations/load";

// The evaluation of a loaded obligation on a day: its payment terms and conditions through the
// terms engine (lib/obligations/terms.ts), payable_minor / due_minor recalculated on every read
// (today in UTC), and the wire forms of its parts that the records of view.ts share.

function conditionStates(o: LoadedObligation): ConditionState[] {
  return o.conditions.map((c) => ({ id: c.id, status: c.status as ConditionState["status"], satisfiedOn: c.satisfiedOn ? fromDate(c.satisfiedOn) : null }));
}

// A stored payment term as the terms engine reads it (also used by the scheduler and the
// reconciliation candidates).
export function termSpecOf(t: LoadedObligation["paymentTerms"][number]): TermSpec {
  return {
    sequence: t.sequence,
    amountType: t.amountType as TermSpec["amountType"],
    fixedAmountMinor: t.fixedAmountMinor,
    percentageBasisPoints: t.percentageBasisPoints,
    triggerType: t.triggerType as TermSpec["triggerType"],
    triggerDate: t.triggerDate ? fromDate(t.triggerDate) : null,
    conditionId: t.conditionId,
    dueRule: t.dueRule as TermSpec["dueRule"],
    dueDate: t.dueDate ? fromDate(t.dueDate) : null,
    dueDays: t.dueDays,
  };
}

function termSpec(t: LoadedObligation["paymentTerms"][number]): TermSpec & { row: typeof t } {
  const spec = termSpecOf(t) as TermSpec & { row: typeof t };
  spec.row = t;
  return spec;
}

type Computed = {
  payableMinor: bigint;
  dueMinor: bigint;
  conditions: TInvoiceRecord["conditions"];
  paymentTerms: TInvoiceRecord["payment_terms"];
  contexts: TInvoiceRecord["contexts"];
  condition: { summary: string; status: TInvoiceRecord["condition_status"]; satisfied_on: string };
  // The last day (from `today` on) with this same evaluation: the day before the next day on
  // which a term triggers or falls due ("9999-12-31" when none will).
  stableUntil: string;
};

// One evaluation per loaded obligation and day: a mutation's result (invoice record and
// projection) and its event's projection read the same one. Loaded obligations are never
// changed in place (a change is a new load), so the memo cannot go stale.
const computed = new WeakMap<LoadedObligation, { today: string; c: Computed }>();

export function compute(o: LoadedObligation, today = todayUtc()): Computed {
  const hit = computed.get(o);
  if (hit?.today === today) return hit.c;
  const c = evaluate(o, today);
  computed.set(o, { today, c });
  return c;
}

function evaluate(o: LoadedObligation, today: string): Computed {
  const states = conditionStates(o);
  const ev = evaluateTerms({
    amountMinor: o.amountMinor,
    registeredOn: fromDate(o.createdAt),
    deadline: fromDate(o.deadline),
    today,
    terms: o.paymentTerms.map(termSpec),
    conditions: states,
  });
  // The wire objects are built field by field in the documented order (optional fields
  // only when set): lists evaluate this for every row, and conditional object spreads cost
  // several times more (docs/benchmarks.md, step 7).
  const paymentTerms: Computed["paymentTerms"] = [];
  if (o.paymentTerms.length) {
    for (const t of ev.terms) {
      const row = (t as ReturnType<typeof termSpec>).row;
      const w: Record<string, unknown> = { id: row.id, sequence: row.sequence, label: row.label, amount_type: t.amountType };
      if (t.fixedAmountMinor != null) w.fixed_amount_minor = t.fixedAmountMinor.toString();
      if (t.percentageBasisPoints != null) w.percentage_basis_points = t.percentageBasisPoints;
      w.amount_minor = t.amountMinor.toString();
      w.trigger_type = t.triggerType;
      if (t.triggerDate) w.trigger_date = t.triggerDate;
      if (t.conditionId) {
        w.condition_id = t.conditionId;
        w.condition_key = o.conditions.find((c) => c.id === t.conditionId)?.key ?? "";
      }
      w.due_rule = t.dueRule;
      if (t.dueDate) w.due_date = t.dueDate;
      if (t.dueDays != null) w.due_days = t.dueDays;
      if (t.triggeredOn) w.triggered_on = t.triggeredOn;
      if (t.payableOn) w.payable_on = t.payableOn;
      paymentTerms.push(w as Computed["paymentTerms"][number]);
    }
  }

  const conditions = o.conditions.map((c, i) => {
    const w: Record<string, unknown> = { id: c.id, key: c.key, label: c.label };
    if (c.externalNamespace !== null && c.externalId !== null) w.external_reference = { namespace: c.externalNamespace, id: c.externalId };
    w.status = c.status;
    if (states[i].satisfiedOn) w.satisfied_on = states[i].satisfiedOn;
    w.source = c.source;
    w.evidence_reference = c.evidenceReference;
    return w as Computed["conditions"][number];
  });

  let condition: Computed["condition"];
  if (o.conditions.length > 0) {
    const status = summaryStatus(states);
    const last = states.reduce<string>((m, c) => (c.satisfiedOn && c.satisfiedOn > m ? c.satisfiedOn : m), "");
    condition = { summary: o.conditionSummary, status, satisfied_on: status === "satisfied" ? last : "" };
  } else if (o.conditionStatus) {
    condition = { summary: o.conditionSummary, status: o.conditionStatus as Computed["condition"]["status"], satisfied_on: fromDate(o.conditionSatisfiedOn) };
  } else {
    condition = { summary: o.conditionSummary, status: "satisfied", satisfied_on: "" };
  }

  const contexts = o.contextLinks.map((l) => {
    const w: Record<string, unknown> = {
      id: l.context.id,
      type: l.context.type,
      kind: l.context.kind,
      type_label: l.context.typeLabel,
      name: l.context.name,
      reference: l.context.reference,
      relationship_type: l.relationshipType,
    };
    if (l.attributedMinor !== null && l.attributedMinor > 0n) {
      w.attributed_minor = l.attributedMinor.toString();
      w.currency = o.currency;
    }
    return w as Computed["contexts"][number];
  });

  let next = "";
  for (const t of ev.terms) {
    if (t.triggeredOn !== null && t.triggeredOn > today && (next === "" || t.triggeredOn < next)) next = t.triggeredOn;
    if (t.payableOn !== null && t.payableOn > today && (next === "" || t.payableOn < next)) next = t.payableOn;
  }
  const stableUntil = next === "" ? "9999-12-31" : addDays(next, -1);

  return { payableMinor: ev.payableMinor, dueMinor: ev.dueMinor, conditions, paymentTerms, contexts, condition, stableUntil };
}
