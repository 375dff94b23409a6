"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { parseDecimalToMinor, formatMinor } from "@/lib/money/format";
import type { AllocatableObligation } from "@/lib/reconciliation/list-allocatable-obligations";
import { FeedbackMessage } from "@/components/ui/feedback";
import { FormError } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";

type Parsed = { minor: bigint; error: string | null };

// "" is nothing for this obligation; anything else must be an exact decimal with at most the
// currency's digits (lib/money), never a float.
function parse(input: string, currency: string): Parsed {
  if (input.trim() === "") return { minor: 0n, error: null };
  const r = parseDecimalToMinor(input, currency);
  return r.ok ? { minor: BigInt(r.minor), error: null } : { minor: 0n, error: r.message };
}

// Split one payment over several obligations by hand: an amount per obligation, the
// payment's remaining amount and each obligation's outstanding amount after the split shown
// as they are typed, then one POST /payments/{id}/allocations per obligation (each with the
// obligation's version). The API allocates one obligation per call: when one is refused
// the ones before it stay recorded, and the page says which.
export function SplitPaymentForm({
  paymentId,
  currency,
  unallocatedMinor,
  obligations,
  locale,
}: {
  paymentId: string;
  currency: string;
  unallocatedMinor: string;
  obligations: AllocatableObligation[];
  locale: string;
}) {
  const router = useRouter();
  const { submit, pending, feedback, setFeedback } = useMutation();
  const [amounts, setAmounts] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const m = (minor: bigint | string) => formatMinor(minor, currency, { locale });

  const parsed = new Map(obligations.map((o) => [o.id, parse(amounts[o.id] ?? "", currency)]));
  const parsedOf = (id: string): Parsed => parsed.get(id) ?? { minor: 0n, error: null };
  const total = [...parsed.values()].reduce((s, p) => s + p.minor, 0n);
  const remaining = BigInt(unallocatedMinor) - total;

  if (obligations.length === 0) return <p className="text-sm text-slate-600">No open obligation in {currency} on this payment&apos;s side to allocate to.</p>;

  return (
    <form
      noValidate
      aria-label="Split the payment over obligations"
      className="space-y-3"
      onSubmit={async (e) => {
        e.preventDefault();
        setFormError(null);
        const chosen = obligations.filter((o) => parsedOf(o.id).minor > 0n);
        if ([...parsed.values()].some((p) => p.error)) return setFormError("Correct the amounts marked below.");
        if (chosen.length === 0) return setFormError("Enter an amount for at least one obligation.");
        if (remaining < 0n) return setFormError(`That is ${m(-remaining)} more than is left of the payment.`);
        const over = chosen.find((o) => parsedOf(o.id).minor > BigInt(o.outstanding_minor));
        if (over) return setFormError(`${over.invoice_number || over.reference}: more than its outstanding ${m(over.outstanding_minor)}.`);
        const done: string[] = [];
        for (const o of chosen) {
          const r = await submit({
            path: `/payments/${paymentId}/allocations`,
            body: { obligation_id: o.id, amount_minor: parsedOf(o.id).minor.toString(), expected_version: o.version },
            refresh: false,
            describe: (err) =>
              err.code === "version_conflict"
                ? `${o.invoice_number || o.reference} changed since this page was loaded; it was not allocated. The page now shows its latest state.`
                : err.code === "allocation_exceeds_remaining"
                  ? `${o.invoice_number || o.reference}: more than is left (${err.message}).`
                  : undefined,
          });
          if (!r.ok) {
            if (done.length) setFormError(`Allocated to ${done.join(", ")} before this was refused.`);
            router.refresh();
            return;
          }
          done.push(o.invoice_number || o.reference);
        }
        setAmounts({});
        setFeedback({ kind: "success", text: `Allocated to ${done.join(", ")}.` });
        router.refresh();
      }}
    >
      <p className="rounded-md bg-slate-50 px-3 py-2 text-sm" aria-live="polite" data-testid="split-remaining">
        Left of the payment after this split: <strong className={`tabular-nums ${remaining < 0n ? "text-rose-700" : ""}`}>{m(remaining)}</strong>
        {remaining < 0n ? " (too much)" : ""} of {m(unallocatedMinor)}
      </p>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Open obligations in {currency}: amount to allocate to each</caption>
          <thead className="text-xs uppercase tracking-wide text-slate-600">
            <tr>
              <th scope="col" className="py-2 pr-3 font-medium">
                Obligation
              </th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">
                Outstanding after
              </th>
              <th scope="col" className="py-2 font-medium">
                Amount ({currency})
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {obligations.map((o) => {
              const p = parsedOf(o.id);
              const after = BigInt(o.outstanding_minor) - p.minor;
              const inputId = `split-${o.id}`;
              const name = `${o.invoice_number || o.reference}`;
              return (
                <tr key={o.id}>
                  <th scope="row" className="py-2 pr-3 align-top font-normal">
                    <span className="block break-words font-medium">{name}</span>
                    <span className="block break-words text-xs text-slate-600">
                      {o.counterparty} · {o.reference} · due {o.deadline}
                    </span>
                  </th>
                  <td className="py-2 pr-3 text-right align-top tabular-nums" data-testid={`after-${o.reference}`}>
                    <span className={after < 0n ? "text-rose-700" : ""}>{m(after)}</span>
                    <span className="block text-xs text-slate-600">of {m(o.outstanding_minor)}</span>
                  </td>
                  <td className="w-32 py-2 align-top">
                    <label htmlFor={inputId} className="sr-only">
                      Amount for {name}
                    </label>
                    <input
                      id={inputId}
                      inputMode="decimal"
                      autoComplete="off"
                      className={`${field.input} mt-0 min-w-24`}
                      value={amounts[o.id] ?? ""}
                      onChange={(e) => setAmounts((cur) => ({ ...cur, [o.id]: e.target.value }))}
                      aria-invalid={!!p.error || after < 0n}
                      aria-describedby={p.error ? `${inputId}-error` : undefined}
                    />
                    {p.error && (
                      <p id={`${inputId}-error`} className={field.error}>
                        {p.error}
                      </p>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <FormError message={formError} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className={btn.primary} disabled={pending}>
          {pending ? "Allocating…" : "Allocate"}
        </button>
        <FeedbackMessage feedback={feedback} />
      </div>
    </form>
  );
}
