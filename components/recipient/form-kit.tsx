"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import { FieldError, FormAlert, SubmitButton, hintClass, inputClass, labelClass } from "@/components/recipient/ui";

// The frame the payer's action forms share (action-forms.tsx, dispute-promise.tsx): one
// submission at a time, a field with its label, hint and error, the form with its button
// and the API's refusal. Plain React, no form library (the payer's phone loads it).

export type Submit = { busy: boolean; error: string | null; run: (send: () => Promise<string | null>) => Promise<string | null> };

// A submission that is not sent twice while it runs; `run` answers the error message or null.
export function useSubmit(): Submit {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (send: () => Promise<string | null>) => {
    if (busy) return null;
    setBusy(true);
    const e = await send();
    setError(e);
    setBusy(false);
    return e;
  };
  return { busy, error, run };
}

export const isDate = (s: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

export function ActionForm({
  s,
  onSubmit,
  busyText,
  submit,
  className = "space-y-4",
  children,
}: {
  s: Submit;
  onSubmit: (e: FormEvent) => void;
  busyText: string;
  submit: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <form noValidate onSubmit={onSubmit} className={className || undefined}>
      {children}
      <SubmitButton busy={s.busy} busyText={busyText}>
        {submit}
      </SubmitButton>
      <FormAlert message={s.error} />
    </form>
  );
}

type Control = { value: string; onChange: (e: { target: { value: string } }) => void };
type Attrs = { min?: string; max?: string; maxLength?: number; inputMode?: "decimal"; autoComplete?: "off" };

// One labelled control named `name`, with id `${formId}-${idPart ?? name}`; its hint and error
// are named by aria-describedby. With `rows` a text area, else an input of `type`; `narrow`
// keeps a date or amount short on wide screens.
export function FormField({
  formId,
  name,
  idPart = name,
  label,
  hint,
  error,
  control,
  type = "text",
  rows,
  narrow,
  attrs,
}: {
  formId: string;
  name: string;
  idPart?: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  control: Control;
  type?: "text" | "date";
  rows?: number;
  narrow?: boolean;
  attrs?: Attrs;
}) {
  const id = `${formId}-${idPart}`;
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name,
    className: narrow ? `${inputClass} sm:max-w-xs` : inputClass,
    "aria-invalid": !!error,
    "aria-describedby": describedBy,
    ...control,
  };
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {rows ? <textarea rows={rows} maxLength={attrs?.maxLength} {...common} /> : <input type={type} {...attrs} {...common} />}
      {hint && (
        <p id={`${id}-hint`} className={hintClass}>
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

// A text control's value and change handler from a useState pair.
export const bind = (value: string, set: (v: string) => void): Control => ({ value, onChange: (e) => set(e.target.value) });

// The "(optional)" after a label.
export function Optional({ children }: { children: ReactNode }) {
  return <span className="font-normal text-slate-600">{children}</span>;
}
