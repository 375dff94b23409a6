"use client";

import type { FieldErrors } from "react-hook-form";
import type { TObligationFormValues } from "@/lib/dashboard/obligation-form";
import { fieldId } from "@/components/obligations/registration/fields";

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

export function flattenErrors(errors: FieldErrors<TObligationFormValues>): { name: string; label: string; message: string }[] {
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

// The server's answer, or the fields to correct with links to them. Focused after a failed
// submission so keyboard and screen-reader users land on it.
export function ErrorSummary({
  summaryRef,
  serverError,
  errors,
}: {
  summaryRef: React.Ref<HTMLDivElement>;
  serverError: string | null;
  errors: FieldErrors<TObligationFormValues>;
}) {
  const list = flattenErrors(errors);
  return (
    <div ref={summaryRef} tabIndex={-1} role="alert" className="rounded-md border border-rose-200 bg-rose-50 p-3 text-sm text-rose-900">
      {serverError ? (
        <p>{serverError}</p>
      ) : (
        <>
          <p className="font-medium">Please correct {list.length === 1 ? "1 field" : `${list.length} fields`}:</p>
          <ul className="mt-1 list-disc pl-5">
            {list.map((e) => (
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
  );
}
