"use client";

import { useFieldArray } from "react-hook-form";
import { emptyTerm, keyFromLabel, type TObligationFormValues } from "@/lib/dashboard/obligation-form";
import { DUE_RULE_LABELS, TRIGGER_LABELS } from "@/lib/dashboard/format";
import { FieldError } from "@/components/ui/field";
import { btn } from "@/components/ui/styles";
import { FormSection, type RegistrationForm, SelectField, TextField } from "@/components/obligations/registration/fields";

export type TermPreview = { amounts: string[]; total: string; matches: boolean } | null;

const TRIGGERS = Object.entries(TRIGGER_LABELS);
const DUE_RULES = Object.entries(DUE_RULE_LABELS).map(([k, label]) => [k, k === "immediately" ? "When it becomes payable" : label] as const);
const AMOUNT_TYPES = [
  ["percentage", "Percentage of the amount"],
  ["fixed", "Fixed amount"],
] as const;

// The payment terms: what each comes to, what makes it payable and when it is due. The
// running total must equal the amount.
export function TermsSection(props: { form: RegistrationForm; values: TObligationFormValues; currency: string; amountPreview: string; preview: TermPreview }) {
  const { form, values, currency, amountPreview, preview } = props;
  const terms = useFieldArray({ control: form.control, name: "payment_terms" });
  const errors = form.formState.errors;
  const conditions = (values.conditions ?? []).map((c) => ({ key: (c.key?.trim() || keyFromLabel(c.label ?? "")) as string, label: c.label }));
  return (
    <FormSection
      id="sec-payment-terms"
      title="Payment terms"
      optional
      className="space-y-3"
      description="Without terms the whole amount is payable now and due on the deadline. With terms, they must add up to the amount."
    >
      {terms.fields.map((f, i) => {
        const t = values.payment_terms?.[i];
        const at = (k: string) => `payment_terms.${i}.${k}`;
        return (
          <div key={f.id} className="space-y-3 rounded-lg border border-slate-200 p-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="text-sm font-semibold">
                Term {i + 1}
                {preview && <span className="ml-2 font-normal text-slate-700">= {preview.amounts[i]}</span>}
              </h3>
              <button type="button" className={btn.small} onClick={() => terms.remove(i)}>
                Remove<span className="sr-only"> term {i + 1}</span>
              </button>
            </div>
            <div className="grid gap-3 sm:grid-cols-3">
              <TextField form={form} label="Term label" name={at("label")} placeholder="e.g. Deposit" />
              <SelectField form={form} label="Amount type" name={at("amount_type")} options={AMOUNT_TYPES} />
              {t?.amount_type === "fixed" ? (
                <TextField form={form} label={`Amount (${currency})`} name={at("amount")} required inputMode="decimal" />
              ) : (
                <TextField form={form} label="Percent" name={at("percent")} required inputMode="decimal" hint="e.g. 30 or 12.5" />
              )}
            </div>
            <div className="grid gap-3 sm:grid-cols-3">
              <SelectField form={form} label="Becomes payable" name={at("trigger_type")} options={TRIGGERS} />
              {t?.trigger_type === "specific_date" && <TextField form={form} label="Payable from" name={at("trigger_date")} type="date" required />}
              {t?.trigger_type === "condition_satisfied" && (
                <SelectField
                  form={form}
                  label="Condition"
                  name={at("condition_key")}
                  required
                  options={[["", "Choose…"], ...conditions.map((c) => [c.key, c.label || c.key] as const)]}
                />
              )}
            </div>
            <div className="grid gap-3 sm:grid-cols-3">
              <SelectField form={form} label="Due" name={at("due_rule")} options={DUE_RULES} />
              {t?.due_rule === "specific_date" && <TextField form={form} label="Due date" name={at("due_date")} type="date" required />}
              {t?.due_rule === "days_after_trigger" && (
                <TextField form={form} label="Days after it becomes payable" name={at("due_days")} inputMode="numeric" required />
              )}
            </div>
          </div>
        );
      })}
      {preview && (
        <p className={`text-sm ${preview.matches ? "text-emerald-800" : "text-rose-700"}`} aria-live="polite">
          Terms total {preview.total}
          {preview.matches ? " — matches the amount." : ` — must equal ${amountPreview}.`}
        </p>
      )}
      <FieldError id="f-payment_terms-error" message={errors.payment_terms?.root?.message ?? errors.payment_terms?.message} />
      <button
        type="button"
        className={btn.secondary}
        onClick={() => terms.append(terms.fields.length === 0 ? { ...emptyTerm(), percent: "100" } : emptyTerm())}
      >
        Add payment term
      </button>
    </FormSection>
  );
}
