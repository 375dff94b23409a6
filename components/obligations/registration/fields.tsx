"use client";

import type { FieldErrors, UseFormReturn } from "react-hook-form";
import type { TObligationFormValues } from "@/lib/dashboard/obligation-form";
import { Label, FieldError, Hint, errorAttrs } from "@/components/ui/field";
import { card, field } from "@/components/ui/styles";

// The pieces every section of the registration form is built from.
export type RegistrationForm = UseFormReturn<TObligationFormValues>;

// The id of a control named like react-hook-form's path ("payment_terms.0.percent"); the
// error summary links to it.
export const fieldId = (name: string) => `f-${name.replace(/\./g, "-")}`;

export function errorAt(errors: FieldErrors<TObligationFormValues>, name: string): string | undefined {
  let node: unknown = errors;
  for (const part of name.split(".")) {
    if (!node || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  const m = (node as { message?: unknown } | undefined)?.message;
  return typeof m === "string" ? m : undefined;
}

// A titled card of the form; `optional` adds the "(optional)" note to the title.
export function FormSection(props: { id: string; title: string; optional?: boolean; description?: string; className?: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={props.id} className={`${card} ${props.className ?? "space-y-4"} p-4 sm:p-5`}>
      <div>
        <h2 id={props.id} className="text-base font-semibold">
          {props.title}
          {props.optional && <span className="font-normal text-slate-600"> (optional)</span>}
        </h2>
        {props.description && <p className="text-sm text-slate-600">{props.description}</p>}
      </div>
      {props.children}
    </section>
  );
}

export function RequiredMark() {
  return <span aria-hidden="true"> *</span>;
}

function FieldLabel({ htmlFor, label, required }: { htmlFor: string; label: string; required?: boolean }) {
  return (
    <Label htmlFor={htmlFor}>
      {label}
      {required && <RequiredMark />}
    </Label>
  );
}

type TextFieldProps = {
  form: RegistrationForm;
  label: string;
  name: string;
  required?: boolean;
  type?: string;
  hint?: string;
  placeholder?: string;
  inputMode?: "decimal" | "numeric" | "text" | "email";
  autoComplete?: string;
  onBlur?: () => void;
};

export function TextField(p: TextFieldProps) {
  const id = fieldId(p.name);
  const error = errorAt(p.form.formState.errors, p.name);
  // the names are built from the form's own paths; react-hook-form's path type cannot follow the template strings
  const reg = p.form.register(p.name as "label", p.onBlur ? { onBlur: p.onBlur } : undefined);
  return (
    <div>
      <FieldLabel htmlFor={id} label={p.label} required={p.required} />
      <input
        id={id}
        type={p.type ?? "text"}
        inputMode={p.inputMode}
        autoComplete={p.autoComplete ?? "off"}
        placeholder={p.placeholder}
        aria-required={p.required || undefined}
        {...errorAttrs(`${id}-error`, error, p.hint ? `${id}-hint` : undefined)}
        className={field.input}
        {...reg}
      />
      {p.hint && <Hint id={`${id}-hint`}>{p.hint}</Hint>}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

type SelectFieldProps = {
  form: RegistrationForm;
  label: string;
  name: string;
  required?: boolean;
  options: readonly (readonly [value: string, label: string])[];
};

export function SelectField(p: SelectFieldProps) {
  const id = fieldId(p.name);
  const error = errorAt(p.form.formState.errors, p.name);
  return (
    <div>
      <FieldLabel htmlFor={id} label={p.label} required={p.required} />
      <select id={id} {...p.form.register(p.name as "currency")} {...errorAttrs(`${id}-error`, error)} className={field.input}>
        {p.options.map(([value, label], i) => (
          // two conditions may share a key while the user is still typing
          // biome-ignore lint/suspicious/noArrayIndexKey: the position is part of the identity here
          <option key={`${value}-${i}`} value={value}>
            {label}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
