"use client";

import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { apiCall } from "@/lib/client/api";
import { describeApiError } from "@/lib/client/errors";
import { useSubmissionKey } from "@/lib/client/submission-key";
import { CURRENCIES } from "@/lib/schemas/common";
import { toRecordPaymentBody, ZRecordPaymentForm, type TRecordPaymentForm } from "@/lib/dashboard/payment-forms";
import { formatMinor, parseDecimalToMinor } from "@/lib/money/format";
import { btn, field } from "@/components/ui/styles";

// POST /payments: record a payment you observed (a bank line, a PSP payout). It confirms
// nothing and moves no money; allocate it to obligations afterwards.
export function RecordPaymentForm({ today, defaultCurrency, locale }: { today: string; defaultCurrency: string; locale: string }) {
  const router = useRouter();
  const keys = useSubmissionKey();
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, handleSubmit, control, formState } = useForm<TRecordPaymentForm>({
    resolver: zodResolver(ZRecordPaymentForm, { error: (iss) => (iss.code === "too_big" ? `At most ${String(iss.maximum)} characters.` : undefined) }),
    defaultValues: { amount: "", currency: (CURRENCIES as readonly string[]).includes(defaultCurrency) ? (defaultCurrency as TRecordPaymentForm["currency"]) : "EUR", received_on: today, payer_name: "", reference: "", note: "" },
  });
  const [amount, currency] = useWatch({ control, name: ["amount", "currency"] });
  const preview = parseDecimalToMinor(amount ?? "", currency ?? "EUR");
  const e = formState.errors;
  const err = (id: string, message?: string) =>
    message ? (
      <p id={`${id}-error`} className={field.error}>
        {message}
      </p>
    ) : null;

  return (
    <form
      noValidate
      aria-label="Record a payment"
      className="space-y-3"
      onSubmit={handleSubmit(async (v) => {
        setServerError(null);
        const { body } = toRecordPaymentBody(v);
        if (!body) return;
        const r = await apiCall<{ id: string }>("POST", "/payments", { body, idempotencyKey: keys.keyFor(body) });
        if (r.ok || r.error.code !== "network_error") keys.settle();
        if (!r.ok) return setServerError(describeApiError(r.error));
        router.push(`/dashboard/payments/${r.data.id}`);
      })}
    >
      <div className="grid gap-3 sm:grid-cols-[1fr_7rem_1fr]">
        <div>
          <label htmlFor="pay-amount" className={field.label}>
            Amount
          </label>
          <input
            id="pay-amount"
            inputMode="decimal"
            autoComplete="off"
            {...register("amount")}
            aria-invalid={!!e.amount}
            aria-describedby={e.amount ? "pay-amount-error" : "pay-amount-hint"}
            className={field.input}
          />
          {e.amount ? (
            err("pay-amount", e.amount.message)
          ) : (
            <p id="pay-amount-hint" className={field.hint}>
              {preview.ok ? `= ${formatMinor(preview.minor, currency ?? "EUR", { locale })}` : "Use a dot for decimals"}
            </p>
          )}
        </div>
        <div>
          <label htmlFor="pay-currency" className={field.label}>
            Currency
          </label>
          <select id="pay-currency" {...register("currency")} className={field.input}>
            {CURRENCIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="pay-received" className={field.label}>
            Received on
          </label>
          <input id="pay-received" type="date" {...register("received_on")} aria-invalid={!!e.received_on} aria-describedby={e.received_on ? "pay-received-error" : undefined} className={field.input} />
          {err("pay-received", e.received_on ? "Choose the date the payment was received." : undefined)}
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor="pay-payer" className={field.label}>
            Payer
          </label>
          <input id="pay-payer" {...register("payer_name")} className={field.input} />
          {err("pay-payer", e.payer_name?.message)}
        </div>
        <div>
          <label htmlFor="pay-reference" className={field.label}>
            Payment reference
          </label>
          <input id="pay-reference" {...register("reference")} className={field.input} placeholder="e.g. remittance text" />
          {err("pay-reference", e.reference?.message)}
        </div>
      </div>
      <div>
        <label htmlFor="pay-note" className={field.label}>
          Note
        </label>
        <input id="pay-note" {...register("note")} className={field.input} />
        {err("pay-note", e.note?.message)}
      </div>
      {serverError && (
        <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {serverError}
        </p>
      )}
      <button type="submit" className={btn.primary} disabled={formState.isSubmitting}>
        Record payment
      </button>
    </form>
  );
}
