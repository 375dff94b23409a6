"use client";

import { useMemo, useRef, useState } from "react";
import { useFieldArray, useForm, useWatch, type FieldErrors } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { apiCall } from "@/lib/client/api";
import { describeApiError } from "@/lib/client/errors";
import { useSubmissionKey } from "@/lib/client/submission-key";
import { CURRENCIES } from "@/lib/schemas/common";
import { OBLIGATION_TYPES, type TMutationResult } from "@/lib/schemas/obligations";
import {
  defaultFormValues,
  emptyCondition,
  emptyTerm,
  humanError,
  keyFromLabel,
  toRegisterBody,
  ZObligationFormValues,
  type TObligationFormValues,
} from "@/lib/dashboard/obligation-form";
import { formatMinor, minorDigits, parseDecimalToMinor, parsePercentToBasisPoints } from "@/lib/money/format";
import { termAmounts, type TermSpec } from "@/lib/obligations/terms";
import { DUE_RULE_LABELS, TRIGGER_LABELS, TYPE_LABELS } from "@/lib/dashboard/format";
import { FieldError } from "@/components/ui/field";
import { btn, card, field } from "@/components/ui/styles";
import { rememberNewLink } from "@/components/obligations/new-link-store";

type ContextOption = { id: string; name: string; type_label: string; reference: string };

type Props = { defaultDeadline: string; defaultCurrency: string; locale: string; contexts: ContextOption[] };

// Registration of an obligation (POST /obligations) as a form. Amounts are typed as
// decimals and converted to minor units with string math; the values are validated with
// the API's schemas (lib/dashboard/obligation-form.ts) before anything is sent.
export function NewObligationForm({ defaultDeadline, defaultCurrency, locale, contexts }: Props) {
  const router = useRouter();
  const keys = useSubmissionKey();
  const [serverError, setServerError] = useState<string | null>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const form = useForm<TObligationFormValues>({
    resolver: zodResolver(ZObligationFormValues, { error: humanError }),
    defaultValues: defaultFormValues({ deadline: defaultDeadline, currency: defaultCurrency }),
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const { register, control, handleSubmit, formState, setValue, getValues } = form;
  const errors = formState.errors;
  const conditions = useFieldArray({ control, name: "conditions" });
  const terms = useFieldArray({ control, name: "payment_terms" });
  const values = useWatch({ control }) as TObligationFormValues;
  const currency = values.currency ?? "EUR";
  const role = values.organization_role ?? "creditor";

  const amountPreview = useMemo(() => {
    const r = parseDecimalToMinor(values.amount ?? "", currency);
    return r.ok ? formatMinor(r.minor, currency, { locale }) : "";
  }, [values.amount, currency, locale]);

  // What each term comes to, as the service will compute it.
  const termPreview = useMemo(() => {
    const amount = parseDecimalToMinor(values.amount ?? "", currency);
    const rows = values.payment_terms ?? [];
    if (!amount.ok || rows.length === 0) return null;
    const specs: TermSpec[] = [];
    for (const [i, t] of rows.entries()) {
      if (t.amount_type === "fixed") {
        const a = parseDecimalToMinor(t.amount ?? "", currency);
        if (!a.ok) return null;
        specs.push({ sequence: i + 1, amountType: "fixed", fixedAmountMinor: BigInt(a.minor), triggerType: "immediately", dueRule: "immediately" });
      } else {
        const p = parsePercentToBasisPoints(t.percent ?? "");
        if (!p.ok) return null;
        specs.push({ sequence: i + 1, amountType: "percentage", percentageBasisPoints: p.basisPoints, triggerType: "immediately", dueRule: "immediately" });
      }
    }
    const amounts = termAmounts(BigInt(amount.minor), specs);
    const total = amounts.reduce((a, b) => a + b, 0n);
    return { amounts: amounts.map((a) => formatMinor(a, currency, { locale })), total: formatMinor(total, currency, { locale }), matches: total === BigInt(amount.minor) };
  }, [values.amount, values.payment_terms, currency, locale]);

  const onSubmit = handleSubmit(
    async (v) => {
      setServerError(null);
      const { body } = toRegisterBody(v);
      if (!body) return;
      const r = await apiCall<TMutationResult>("POST", "/obligations", { body, idempotencyKey: keys.keyFor(body) });
      if (!r.ok) {
        if (r.error.code !== "network_error") keys.settle();
        setServerError(describeApiError(r.error));
        if (r.error.code === "unauthenticated") router.push("/login");
        requestAnimationFrame(() => summaryRef.current?.focus());
        return;
      }
      keys.settle();
      const id = r.data.invoice.id;
      if (r.data.payment_request) rememberNewLink({ obligationId: id, hostedUrl: r.data.payment_request.hosted_url, expiresAt: r.data.payment_request.expires_at });
      router.push(`/dashboard/obligations/${id}`);
    },
    () => requestAnimationFrame(() => summaryRef.current?.focus()),
  );

  const errorList = flattenErrors(errors);
  const showSummary = serverError || (formState.isSubmitted && errorList.length > 0);
  const conditionKeys = (values.conditions ?? []).map((c) => (c.key?.trim() || keyFromLabel(c.label ?? "")) as string);
  const party = role === "creditor" ? "Debtor (who owes you)" : "Creditor (whom you owe)";

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6" aria-describedby="form-intro">
      <p id="form-intro" className="text-sm text-slate-600">
        Fields marked <span aria-hidden="true">*</span>
        <span className="sr-only">with an asterisk</span> are required. Registering creates a secure link for your counterparty; you send it in your own message.
      </p>

      {showSummary && (
        <div ref={summaryRef} tabIndex={-1} role="alert" className="rounded-md border border-rose-200 bg-rose-50 p-3 text-sm text-rose-900">
          {serverError ? (
            <p>{serverError}</p>
          ) : (
            <>
              <p className="font-medium">Please correct {errorList.length === 1 ? "1 field" : `${errorList.length} fields`}:</p>
              <ul className="mt-1 list-disc pl-5">
                {errorList.map((e) => (
                  <li key={e.name}>
                    <a href={`#${fieldId(e.name)}`} className="underline">
                      {e.label}: {e.message}
                    </a>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}

      <section aria-labelledby="sec-what-it-is" className={`${card} space-y-4 p-4 sm:p-5`}>
        <h2 id="sec-what-it-is" className="text-base font-semibold">
          What it is
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="f-obligation_type" className={field.label}>
              Type <span aria-hidden="true">*</span>
            </label>
            <select id="f-obligation_type" {...register("obligation_type")} className={field.input}>
              {OBLIGATION_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </div>
          <fieldset>
            <legend className={field.label}>Direction</legend>
            <div className="mt-1 grid gap-2">
              <label className="flex items-center gap-2 text-sm">
                <input type="radio" value="creditor" {...register("organization_role")} className="size-4" /> You are owed (you are the creditor)
              </label>
              <label className="flex items-center gap-2 text-sm">
                <input type="radio" value="debtor" {...register("organization_role")} className="size-4" /> You owe (you are the debtor)
              </label>
            </div>
          </fieldset>
        </div>
      </section>

      <section aria-labelledby="sec-counterparty" className={`${card} space-y-4 p-4 sm:p-5`}>
        <h2 id="sec-counterparty" className="text-base font-semibold">
          {party}
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={role === "creditor" ? "Debtor name" : "Creditor name"} name="counterparty_name" required errors={errors} register={register} autoComplete="organization" />
          <TextField
            label={role === "creditor" ? "Debtor email" : "Creditor email"}
            name="counterparty_email"
            type="email"
            errors={errors}
            register={register}
            autoComplete="email"
            hint="Used as the “To” of the delivery draft; nothing is sent by the service."
          />
        </div>
      </section>

      <section aria-labelledby="sec-amount-and-deadline" className={`${card} space-y-4 p-4 sm:p-5`}>
        <h2 id="sec-amount-and-deadline" className="text-base font-semibold">
          Amount and deadline
        </h2>
        <div className="grid gap-4 sm:grid-cols-[1fr_8rem_1fr]">
          <TextField
            label="Amount"
            name="amount"
            required
            inputMode="decimal"
            errors={errors}
            register={register}
            hint={
              amountPreview
                ? `= ${amountPreview}`
                : minorDigits(currency) === 0
                  ? `${currency} has no decimal places, e.g. 150000`
                  : `Use a dot for decimals, e.g. 1250.50`
            }
          />
          <div>
            <label htmlFor="f-currency" className={field.label}>
              Currency <span aria-hidden="true">*</span>
            </label>
            <select id="f-currency" {...register("currency")} className={field.input}>
              {CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
          <TextField label="Deadline" name="deadline" type="date" required errors={errors} register={register} />
        </div>
      </section>

      <section aria-labelledby="sec-reference-and-description" className={`${card} space-y-4 p-4 sm:p-5`}>
        <h2 id="sec-reference-and-description" className="text-base font-semibold">
          Reference and description
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Invoice or document number" name="invoice_number" required errors={errors} register={register} />
          <TextField label="Label" name="label" errors={errors} register={register} hint="A short name for your team, e.g. “Q4 retainer”." />
        </div>
        <div>
          <label htmlFor="f-description" className={field.label}>
            Description
          </label>
          <textarea
            id="f-description"
            rows={3}
            {...register("description")}
            aria-invalid={!!errors.description}
            aria-describedby={errors.description ? "f-description-error" : undefined}
            className={field.input}
          />
          <FieldError id="f-description-error" message={errors.description?.message} />
        </div>
        <details className="rounded-md border border-slate-200 p-3">
          <summary className="cursor-pointer text-sm font-medium text-slate-800">Reference in another system (optional)</summary>
          <p className="mt-2 text-sm text-slate-600">Where this obligation lives elsewhere, e.g. your accounting system. Defaults to “dashboard” and the invoice number.</p>
          <div className="mt-3 grid gap-4 sm:grid-cols-2">
            <TextField label="System (namespace)" name="external_namespace" errors={errors} register={register} placeholder="dashboard" />
            <TextField label="Id in that system" name="external_id" errors={errors} register={register} />
          </div>
        </details>
      </section>

      <section aria-labelledby="sec-conditions" className={`${card} space-y-3 p-4 sm:p-5`}>
        <div>
          <h2 id="sec-conditions" className="text-base font-semibold">
            Conditions <span className="font-normal text-slate-600">(optional)</span>
          </h2>
          <p className="text-sm text-slate-600">Things that must happen before (part of) the amount becomes payable, e.g. “Site acceptance”.</p>
        </div>
        {conditions.fields.map((f, i) => (
          <div key={f.id} className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-[1fr_12rem_auto] sm:items-start">
            <TextField
              label={`Condition ${i + 1}`}
              name={`conditions.${i}.label`}
              required
              errors={errors}
              register={register}
              onBlur={() => {
                if (!getValues(`conditions.${i}.key`)) setValue(`conditions.${i}.key`, keyFromLabel(getValues(`conditions.${i}.label`)));
              }}
            />
            <TextField label="Key" name={`conditions.${i}.key`} errors={errors} register={register} hint="Made from the label if empty." />
            <button type="button" className={`${btn.small} sm:mt-6`} onClick={() => conditions.remove(i)}>
              Remove<span className="sr-only"> condition {i + 1}</span>
            </button>
          </div>
        ))}
        <button type="button" className={btn.secondary} onClick={() => conditions.append(emptyCondition())}>
          Add condition
        </button>
      </section>

      <section aria-labelledby="sec-payment-terms" className={`${card} space-y-3 p-4 sm:p-5`}>
        <div>
          <h2 id="sec-payment-terms" className="text-base font-semibold">
            Payment terms <span className="font-normal text-slate-600">(optional)</span>
          </h2>
          <p className="text-sm text-slate-600">Without terms the whole amount is payable now and due on the deadline. With terms, they must add up to the amount.</p>
        </div>
        {terms.fields.map((f, i) => {
          const t = values.payment_terms?.[i];
          return (
            <div key={f.id} className="space-y-3 rounded-lg border border-slate-200 p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="text-sm font-semibold">
                  Term {i + 1}
                  {termPreview && <span className="ml-2 font-normal text-slate-700">= {termPreview.amounts[i]}</span>}
                </h3>
                <button type="button" className={btn.small} onClick={() => terms.remove(i)}>
                  Remove<span className="sr-only"> term {i + 1}</span>
                </button>
              </div>
              <div className="grid gap-3 sm:grid-cols-3">
                <TextField label="Term label" name={`payment_terms.${i}.label`} errors={errors} register={register} placeholder="e.g. Deposit" />
                <div>
                  <label htmlFor={fieldId(`payment_terms.${i}.amount_type`)} className={field.label}>
                    Amount type
                  </label>
                  <select id={fieldId(`payment_terms.${i}.amount_type`)} {...register(`payment_terms.${i}.amount_type`)} className={field.input}>
                    <option value="percentage">Percentage of the amount</option>
                    <option value="fixed">Fixed amount</option>
                  </select>
                </div>
                {t?.amount_type === "fixed" ? (
                  <TextField label={`Amount (${currency})`} name={`payment_terms.${i}.amount`} required inputMode="decimal" errors={errors} register={register} />
                ) : (
                  <TextField label="Percent" name={`payment_terms.${i}.percent`} required inputMode="decimal" errors={errors} register={register} hint="e.g. 30 or 12.5" />
                )}
              </div>
              <div className="grid gap-3 sm:grid-cols-3">
                <div>
                  <label htmlFor={fieldId(`payment_terms.${i}.trigger_type`)} className={field.label}>
                    Becomes payable
                  </label>
                  <select id={fieldId(`payment_terms.${i}.trigger_type`)} {...register(`payment_terms.${i}.trigger_type`)} className={field.input}>
                    {Object.entries(TRIGGER_LABELS).map(([k, label]) => (
                      <option key={k} value={k}>
                        {label}
                      </option>
                    ))}
                  </select>
                </div>
                {t?.trigger_type === "specific_date" && (
                  <TextField label="Payable from" name={`payment_terms.${i}.trigger_date`} type="date" required errors={errors} register={register} />
                )}
                {t?.trigger_type === "condition_satisfied" && (
                  <div>
                    <label htmlFor={fieldId(`payment_terms.${i}.condition_key`)} className={field.label}>
                      Condition <span aria-hidden="true">*</span>
                    </label>
                    <select
                      id={fieldId(`payment_terms.${i}.condition_key`)}
                      {...register(`payment_terms.${i}.condition_key`)}
                      aria-invalid={!!errors.payment_terms?.[i]?.condition_key}
                      aria-describedby={errors.payment_terms?.[i]?.condition_key ? `${fieldId(`payment_terms.${i}.condition_key`)}-error` : undefined}
                      className={field.input}
                    >
                      <option value="">Choose…</option>
                      {conditionKeys.map((k, ci) => (
                        <option key={`${k}-${ci}`} value={k}>
                          {values.conditions?.[ci]?.label || k}
                        </option>
                      ))}
                    </select>
                    <FieldError id={`${fieldId(`payment_terms.${i}.condition_key`)}-error`} message={errors.payment_terms?.[i]?.condition_key?.message} />
                  </div>
                )}
              </div>
              <div className="grid gap-3 sm:grid-cols-3">
                <div>
                  <label htmlFor={fieldId(`payment_terms.${i}.due_rule`)} className={field.label}>
                    Due
                  </label>
                  <select id={fieldId(`payment_terms.${i}.due_rule`)} {...register(`payment_terms.${i}.due_rule`)} className={field.input}>
                    {Object.entries(DUE_RULE_LABELS).map(([k, label]) => (
                      <option key={k} value={k}>
                        {k === "immediately" ? "When it becomes payable" : label}
                      </option>
                    ))}
                  </select>
                </div>
                {t?.due_rule === "specific_date" && <TextField label="Due date" name={`payment_terms.${i}.due_date`} type="date" required errors={errors} register={register} />}
                {t?.due_rule === "days_after_trigger" && (
                  <TextField label="Days after it becomes payable" name={`payment_terms.${i}.due_days`} inputMode="numeric" required errors={errors} register={register} />
                )}
              </div>
            </div>
          );
        })}
        {termPreview && (
          <p className={`text-sm ${termPreview.matches ? "text-emerald-800" : "text-rose-700"}`} aria-live="polite">
            Terms total {termPreview.total}
            {termPreview.matches ? " — matches the amount." : ` — must equal ${amountPreview}.`}
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
      </section>

      {contexts.length > 0 && (
        <section aria-labelledby="sec-business-contexts" className={`${card} space-y-3 p-4 sm:p-5`}>
          <div>
            <h2 id="sec-business-contexts" className="text-base font-semibold">
              Business contexts <span className="font-normal text-slate-600">(optional)</span>
            </h2>
            <p className="text-sm text-slate-600">The company, project or order this belongs to.</p>
          </div>
          <div className="grid max-h-64 gap-2 overflow-y-auto sm:grid-cols-2">
            {contexts.map((c) => (
              <label key={c.id} className="flex items-start gap-2 text-sm">
                <input type="checkbox" value={c.id} {...register("context_ids")} className="mt-0.5 size-4" />
                <span>
                  {c.name} <span className="text-slate-600">· {c.type_label}{c.reference ? ` · ${c.reference}` : ""}</span>
                </span>
              </label>
            ))}
          </div>
        </section>
      )}

      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={formState.isSubmitting} className={btn.primary}>
          {formState.isSubmitting ? "Registering…" : "Register obligation"}
        </button>
        <a href="/dashboard/obligations" className="text-sm text-slate-700 underline">
          Cancel
        </a>
      </div>
    </form>
  );
}

// ------------------------------------------------------------------------------------

const fieldId = (name: string) => `f-${name.replace(/\./g, "-")}`;

const LABELS: Record<string, string> = {
  counterparty_name: "Counterparty name",
  counterparty_email: "Counterparty email",
  amount: "Amount",
  deadline: "Deadline",
  invoice_number: "Invoice or document number",
  description: "Description",
  label: "Label",
  external_namespace: "System (namespace)",
  external_id: "Id in that system",
  payment_terms: "Payment terms",
};

function labelOf(name: string): string {
  const m = /^(conditions|payment_terms)\.(\d+)\.(\w+)$/.exec(name);
  if (m) return `${m[1] === "conditions" ? "Condition" : "Term"} ${Number(m[2]) + 1} ${m[3].replace(/_/g, " ")}`;
  return LABELS[name] ?? name.replace(/_/g, " ");
}

function flattenErrors(errors: FieldErrors<TObligationFormValues>): { name: string; label: string; message: string }[] {
  const out: { name: string; label: string; message: string }[] = [];
  const walk = (node: unknown, path: string) => {
    if (!node || typeof node !== "object") return;
    const n = node as { message?: unknown; type?: unknown; root?: unknown };
    if (typeof n.message === "string" && n.type !== undefined) {
      out.push({ name: path, label: labelOf(path), message: n.message });
      return;
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === "ref") continue;
      walk(v, k === "root" ? path : path ? `${path}.${k}` : k);
    }
  };
  walk(errors, "");
  return out;
}

type TextFieldProps = {
  label: string;
  name: string;
  errors: FieldErrors<TObligationFormValues>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  register: (name: any, opts?: any) => any;
  required?: boolean;
  type?: string;
  hint?: string;
  placeholder?: string;
  inputMode?: "decimal" | "numeric" | "text" | "email";
  autoComplete?: string;
  onBlur?: () => void;
};

function TextField(p: TextFieldProps) {
  const id = fieldId(p.name);
  const error = getError(p.errors, p.name);
  const describedBy = [error ? `${id}-error` : "", p.hint ? `${id}-hint` : ""].filter(Boolean).join(" ") || undefined;
  const reg = p.register(p.name, p.onBlur ? { onBlur: p.onBlur } : undefined);
  return (
    <div>
      <label htmlFor={id} className={field.label}>
        {p.label}
        {p.required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={id}
        type={p.type ?? "text"}
        inputMode={p.inputMode}
        autoComplete={p.autoComplete ?? "off"}
        placeholder={p.placeholder}
        aria-required={p.required || undefined}
        aria-invalid={!!error}
        aria-describedby={describedBy}
        className={field.input}
        {...reg}
      />
      {p.hint && (
        <p id={`${id}-hint`} className={field.hint}>
          {p.hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

function getError(errors: FieldErrors<TObligationFormValues>, name: string): string | undefined {
  let node: unknown = errors;
  for (const part of name.split(".")) {
    if (!node || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  const m = (node as { message?: unknown } | undefined)?.message;
  return typeof m === "string" ? m : undefined;
}
