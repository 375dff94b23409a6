import { createContext, type ReactNode, useContext } from "react";
import { FieldError as SharedFieldError } from "@/components/ui/field";

// Small presentational pieces of the hosted page (no client state).

// Where one page shows the cards of several invoices (the account page), each invoice's cards
// get ids of their own and a name that ends with the invoice's label (the element `labelId`),
// so the regions stay unique landmarks: "Zahlungstermin zusagen Rechnung RE-2026-005".
export const CardScope = createContext<{ key: string; labelId: string } | null>(null);

export function Card({ id, title, children, description }: { id: string; title: string; children: ReactNode; description?: ReactNode }) {
  const scope = useContext(CardScope);
  const titleId = scope ? `${id}-${scope.key}-title` : `${id}-title`;
  return (
    <section
      aria-labelledby={scope ? `${titleId} ${scope.labelId}` : titleId}
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 print:break-inside-avoid print:border-0 print:p-0 print:shadow-none"
    >
      <h2 id={titleId} className="text-lg font-semibold tracking-tight">
        {title}
      </h2>
      {description && <div className="mt-1 text-sm text-slate-600">{description}</div>}
      <div className="mt-4">{children}</div>
    </section>
  );
}

export type Tone = "neutral" | "info" | "success" | "warning" | "danger";

const TONES: Record<Tone, string> = {
  neutral: "bg-slate-100 text-slate-800",
  info: "bg-blue-100 text-blue-900",
  success: "bg-emerald-100 text-emerald-900",
  warning: "bg-amber-100 text-amber-900",
  danger: "bg-rose-100 text-rose-900",
};

export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-sm font-medium ${TONES[tone]}`}>{children}</span>;
}

// The dashboard's field kit (components/ui/field.tsx) serves this page too; only the
// visual weight differs: recipients are outside people, often on a phone, so controls are
// larger (44 px targets, 16 px text at every width) and borders and errors darker.
export function FieldError({ id, message }: { id: string; message?: string }) {
  return <SharedFieldError id={id} message={message} className="mt-1 text-sm text-rose-800" />;
}

export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="mt-3 rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-900">
      {message}
    </p>
  );
}

export const inputClass =
  "mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 aria-[invalid=true]:border-rose-700";
export const labelClass = "block text-sm font-medium text-slate-900";
export const hintClass = "mt-1 text-sm text-slate-600";

export function SubmitButton({ busy, children, busyText }: { busy: boolean; children: ReactNode; busyText: string }) {
  return (
    <button
      type="submit"
      disabled={busy}
      aria-disabled={busy}
      className="mt-4 inline-flex min-h-11 w-full items-center justify-center rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-900 disabled:opacity-70 sm:w-auto"
    >
      {busy ? busyText : children}
    </button>
  );
}
