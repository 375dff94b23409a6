import { trimChar } from "@/lib/strings";
import { z } from "zod";
import { CURRENCIES, ZCurrency, ZDate } from "@/lib/schemas/common";
import {
  AMOUNT_TYPES,
  DUE_RULES,
  ORGANIZATION_ROLES,
  TRIGGER_TYPES,
  ZConditionInput,
  ZParty,
  ZRegisterObligation,
  type TRegisterObligation,
} from "@/lib/schemas/obligations";
import { formatMinor, parseDecimalToMinor, parsePercentToBasisPoints } from "@/lib/money/format";
import { termAmounts, type TermSpec } from "@/lib/obligations/terms";

// The "New obligation" form: what a person types (a decimal amount, a percentage, one
// counterparty) and how it becomes the API's register-obligation body. The form is
// validated with the API's own schemas: each field with the matching part of
// ZRegisterObligation, and the whole converted body with ZRegisterObligation itself, so
// what the form accepts is exactly what POST /obligations accepts.

const R = ZRegisterObligation.shape;
const C = ZConditionInput.shape;

const optionalEmail = z.union([z.literal(""), z.email({ message: "Enter a valid email address, or leave it empty." }).max(320)]);
const optionalDate = z.union([z.literal(""), ZDate]);

export const ZConditionRow = z.object({
  label: C.label,
  key: z.union([z.literal(""), C.key]),
});

export const ZTermRow = z.object({
  label: z.union([z.literal(""), z.string().max(250)]),
  amount_type: z.enum(AMOUNT_TYPES),
  amount: z.string(),
  percent: z.string(),
  trigger_type: z.enum(TRIGGER_TYPES),
  trigger_date: optionalDate,
  condition_key: z.string(),
  due_rule: z.enum(DUE_RULES),
  due_date: optionalDate,
  due_days: z.string(),
});

export const ZObligationFormValues = z
  .object({
    obligation_type: R.obligation_type,
    organization_role: z.enum(ORGANIZATION_ROLES),
    counterparty_name: ZParty.shape.name,
    counterparty_email: optionalEmail,
    amount: z.string(),
    currency: ZCurrency,
    deadline: R.deadline,
    invoice_number: R.business_context.shape.invoice_number,
    description: z.string().max(5000),
    label: z.string().max(500),
    external_namespace: z.string().max(200),
    external_id: z.string().max(200),
    context_ids: z.array(z.string()),
    conditions: z.array(ZConditionRow).max(100),
    payment_terms: z.array(ZTermRow).max(100),
  })
  .superRefine((v, ctx) => {
    const r = toRegisterBody(v);
    for (const issue of r.issues) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  });

export type TObligationFormValues = z.input<typeof ZObligationFormValues>;
export type TConditionRow = z.input<typeof ZConditionRow>;
export type TTermRow = z.input<typeof ZTermRow>;

export const emptyCondition = (): TConditionRow => ({ label: "", key: "" });
export const emptyTerm = (): TTermRow => ({
  label: "",
  amount_type: "percentage",
  amount: "",
  percent: "",
  trigger_type: "immediately",
  trigger_date: "",
  condition_key: "",
  due_rule: "days_after_trigger",
  due_date: "",
  due_days: "30",
});

export function defaultFormValues(opts: { deadline: string; currency?: string }): TObligationFormValues {
  return {
    obligation_type: "invoice",
    organization_role: "creditor",
    counterparty_name: "",
    counterparty_email: "",
    amount: "",
    currency: (CURRENCIES as readonly string[]).includes(opts.currency ?? "") ? (opts.currency as (typeof CURRENCIES)[number]) : "EUR",
    deadline: opts.deadline,
    invoice_number: "",
    description: "",
    label: "",
    external_namespace: "",
    external_id: "",
    context_ids: [],
    conditions: [],
    payment_terms: [],
  };
}

// "Inspection passed" -> "inspection-passed" (a condition key from its label).
export function keyFromLabel(label: string): string {
  const k = trimChar(
    label
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-"),
    "-",
  ).slice(0, 60);
  return k || "condition";
}

export const conditionKey = (c: TConditionRow) => c.key.trim() || keyFromLabel(c.label);

export const DEFAULT_NAMESPACE = "dashboard";

type Issue = { path: (string | number)[]; message: string };

// Form values -> the POST /obligations body, or the issues (with the form's field paths).
export function toRegisterBody(v: z.output<typeof ZObligationFormValues> | TObligationFormValues): { body?: TRegisterObligation; issues: Issue[] } {
  const issues: Issue[] = [];
  const amount = parseDecimalToMinor(v.amount, v.currency);
  if (!amount.ok) issues.push({ path: ["amount"], message: amount.message });

  const keys = v.conditions.map((c) => conditionKey(c));
  keys.forEach((k, i) => {
    if (keys.indexOf(k) !== i) issues.push({ path: ["conditions", i, "key"], message: `The key “${k}” is already used by another condition.` });
  });

  const terms: NonNullable<TRegisterObligation["payment_terms"]> = [];
  const specs: TermSpec[] = [];
  v.payment_terms.forEach((t, i) => {
    const at = (field: string, message: string) => issues.push({ path: ["payment_terms", i, field], message });
    const term: NonNullable<TRegisterObligation["payment_terms"]>[number] = {
      sequence: i + 1,
      amount_type: t.amount_type,
      trigger_type: t.trigger_type,
      due_rule: t.due_rule,
      ...(t.label.trim() ? { label: t.label.trim() } : {}),
    };
    const spec: TermSpec = { sequence: i + 1, amountType: t.amount_type, triggerType: t.trigger_type, dueRule: t.due_rule };
    if (t.amount_type === "fixed") {
      const a = parseDecimalToMinor(t.amount, v.currency);
      if (a.ok) {
        term.fixed_amount_minor = a.minor;
        spec.fixedAmountMinor = BigInt(a.minor);
      } else at("amount", a.message);
    } else {
      const p = parsePercentToBasisPoints(t.percent);
      if (p.ok) {
        term.percentage_basis_points = p.basisPoints;
        spec.percentageBasisPoints = p.basisPoints;
      } else at("percent", p.message);
    }
    if (t.trigger_type === "specific_date") {
      if (t.trigger_date) term.trigger_date = spec.triggerDate = t.trigger_date;
      else at("trigger_date", "Choose the date the term starts to apply.");
    }
    if (t.trigger_type === "condition_satisfied") {
      if (t.condition_key && keys.includes(t.condition_key)) {
        term.condition_key = t.condition_key;
        spec.conditionId = t.condition_key;
      } else at("condition_key", v.conditions.length ? "Choose the condition that triggers this term." : "Add a condition first, or choose another trigger.");
    }
    if (t.due_rule === "specific_date") {
      if (t.due_date) term.due_date = spec.dueDate = t.due_date;
      else at("due_date", "Choose the due date.");
    }
    if (t.due_rule === "days_after_trigger") {
      const n = /^[0-9]{1,5}$/.test(t.due_days.trim()) ? Number(t.due_days.trim()) : NaN;
      if (Number.isInteger(n) && n >= 1 && n <= 36500) term.due_days = spec.dueDays = n;
      else at("due_days", "Enter a number of days from 1 to 36500.");
    }
    terms.push(term);
    specs.push(spec);
  });

  if (amount.ok && terms.length && !issues.some((i) => i.path[0] === "payment_terms")) {
    const total = termAmounts(BigInt(amount.minor), specs).reduce((a, b) => a + b, 0n);
    if (total !== BigInt(amount.minor)) {
      issues.push({
        path: ["payment_terms"],
        message: `The terms add up to ${formatMinor(total, v.currency)}, not to the amount of ${formatMinor(amount.minor, v.currency)}.`,
      });
    }
  }
  if (issues.length) return { issues };

  const party = { name: v.counterparty_name.trim(), ...(v.counterparty_email.trim() ? { email: v.counterparty_email.trim() } : {}) };
  const body: TRegisterObligation = {
    obligation_type: v.obligation_type,
    organization_role: v.organization_role,
    external_reference: { namespace: v.external_namespace.trim() || DEFAULT_NAMESPACE, id: v.external_id.trim() || v.invoice_number.trim() },
    ...(v.organization_role === "creditor" ? { debtor: party } : { creditor: party }),
    amount_minor: amount.ok ? amount.minor : "",
    currency: v.currency,
    deadline: v.deadline,
    business_context: { invoice_number: v.invoice_number.trim(), ...(v.description.trim() ? { description: v.description.trim() } : {}) },
    ...(v.label.trim() ? { label: v.label.trim() } : {}),
    ...(v.conditions.length ? { conditions: v.conditions.map((c, i) => ({ key: keys[i], label: c.label.trim() })) } : {}),
    ...(terms.length ? { payment_terms: terms } : {}),
    ...(v.context_ids.length ? { context_ids: v.context_ids } : {}),
  };
  // The API's schema has the last word; its paths are mapped back to the form's fields.
  const checked = ZRegisterObligation.safeParse(body);
  if (!checked.success) return { issues: checked.error.issues.map((i) => ({ path: formPath(i.path), message: i.message })) };
  return { body: checked.data, issues: [] };
}

function formPath(p: readonly PropertyKey[]): (string | number)[] {
  const path = p.map((x) => (typeof x === "symbol" ? String(x) : x));
  const [head, a, b] = path;
  if (head === "amount_minor") return ["amount"];
  if (head === "debtor" || head === "creditor") return [a === "email" ? "counterparty_email" : "counterparty_name"];
  if (head === "business_context") return [a === "description" ? "description" : "invoice_number"];
  if (head === "external_reference") return [a === "namespace" ? "external_namespace" : "external_id"];
  if (head === "conditions" && typeof a === "number") return ["conditions", a, b === "key" ? "key" : "label"];
  if (head === "payment_terms" && typeof a === "number") {
    const map: Record<string, string> = { fixed_amount_minor: "amount", percentage_basis_points: "percent", condition_key: "condition_key" };
    return ["payment_terms", a, map[String(b)] ?? String(b ?? "label")];
  }
  return path.length ? path : ["root"];
}

// Plain-language messages for the schema's generic issues (the API's own custom messages,
// e.g. on dates, are kept).
export const humanError = (iss: z.core.$ZodRawIssue): string | undefined => {
  if (iss.code === "too_small" && iss.origin === "string" && iss.minimum === 1) return "This field is required.";
  if (iss.code === "too_big" && iss.origin === "string") return `At most ${String(iss.maximum)} characters.`;
  if (iss.code === "too_big" && iss.origin === "array") return `At most ${String(iss.maximum)} rows.`;
  if (iss.code === "invalid_value") return "Choose one of the options.";
  return undefined;
};
