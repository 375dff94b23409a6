import type { ReactNode } from "react";
import { field } from "@/components/ui/styles";

// The dashboard's form kit: a label, a hint, an error message, and the attributes that tie
// a control to them (so screen readers announce the hint and the error with the field).
// Every dashboard form uses these; the hosted recipient page uses FieldError and errorAttrs
// too and keeps only its own larger control styles (components/recipient/ui.tsx).

export function Label({ htmlFor, children, className }: { htmlFor: string; children: ReactNode; className?: string }) {
  return (
    <label htmlFor={htmlFor} className={className ?? field.label}>
      {children}
    </label>
  );
}

export function Hint({ id, children }: { id?: string; children: ReactNode }) {
  return (
    <p id={id} className={field.hint}>
      {children}
    </p>
  );
}

export function FieldError({ id, message, className }: { id: string; message?: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p id={id} className={className ?? field.error}>
      {message}
    </p>
  );
}

// An error of the form as a whole (e.g. a combination of fields), announced at once.
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className={field.error}>
      {message}
    </p>
  );
}

// aria-invalid and aria-describedby for a control with an error (and optionally a hint
// that stays described while there is no error).
export const errorAttrs = (errorId: string, message?: string | null, hintId?: string) => ({
  "aria-invalid": !!message,
  "aria-describedby": [hintId, message ? errorId : undefined].filter(Boolean).join(" ") || undefined,
});

// The options of a select that starts with nothing chosen.
export function ChoiceOptions({ options }: { options: readonly { id: string; label: string }[] }) {
  return (
    <>
      <option value="">Choose…</option>
      {options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.label}
        </option>
      ))}
    </>
  );
}

// A labelled decimal input (an amount, a percentage) with its optional hint and its error.
export function DecimalField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | null;
  hint?: string;
}) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <input
        id={id}
        inputMode="decimal"
        className={field.input}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...errorAttrs(`${id}-error`, error, hint ? `${id}-hint` : undefined)}
      />
      {hint && <Hint id={`${id}-hint`}>{hint}</Hint>}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
