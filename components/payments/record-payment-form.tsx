"use client";

import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useRouter } from "next/navigation";
import { CURRENCIES } from "@/lib/schemas/common";
import { toRecordPaymentBody, ZRecordPaymentForm, type TRecordPaymentForm } from "@/lib/dashboard/payment-forms";
import { formatMinor, parseDecimalToMinor } from "@/lib/money/format";
import { FeedbackMessage } from "@/components/ui/feedback";
import { FieldError, Hint, Label, errorAttrs } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";

// POST /payments: record a payment you observed (a bank line, a PSP payout). It confirms
// nothing and moves no money; allocate it to obligations afterwards.
export function RecordPaymentForm({ today, defaultCurrency, locale }: { today: string; defaultCurrency: string; locale: string }) {
  const router = useRouter();
  const { submit, pending, feedback } = useMutation();
  const { register, handleSubmit, control, formState } = useForm<TRecordPaymentForm>({
    resolver: zodResolver(ZRecordPaymentForm, { error: (iss) => (iss.code === "too_big" ? `At most ${String(iss.maximum)} characters.` : undefined) }),
    defaultValues: {
      amount: "",
      currency: (CURRENCIES as readonly string[]).includes(defaultCurrency) ? (defaultCurrency as TRecordPaymentForm["currency"]) : "EUR",
      received_on: today,
      payer_name: "",
      reference: "",
      note: "",
    },
  });
  const [amount, currency] = useWatch({ control, name: ["amount", "currency"] });
  const preview = parseDecimalToMinor(amount ?? "", currency ?? "EUR");
  const e = formState.errors;

  return (
    <form
      noValidate
      aria-label="Record a payment"
      className="space-y-3"
      onSubmit={handleSubmit(async (v) => {
        const { body } = toRecordPaymentBody(v);
        if (!body) return;
        // success opens the payment's page, which is the confirmation
        const r = await submit<{ id: string }>({ path: "/payments", body, refresh: false });
        if (r.ok) router.push(`/dashboard/payments/${r.data.id}`);
      })}
    >
      <div className="grid gap-3 sm:grid-cols-[1fr_7rem_1fr]">
        <div>
          <Label htmlFor="pay-amount">Amount</Label>
          <input
            id="pay-amount"
            inputMode="decimal"
            autoComplete="off"
            {...register("amount")}
            {...errorAttrs("pay-amount-error", e.amount?.message, e.amount ? undefined : "pay-amount-hint")}
            className={field.input}
          />
          {e.amount ? (
            <FieldError id="pay-amount-error" message={e.amount.message} />
          ) : (
            <Hint id="pay-amount-hint">{preview.ok ? `= ${formatMinor(preview.minor, currency ?? "EUR", { locale })}` : "Use a dot for decimals"}</Hint>
          )}
        </div>
        <div>
          <Label htmlFor="pay-currency">Currency</Label>
          <select id="pay-currency" {...register("currency")} className={field.input}>
            {CURRENCIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </div>
        <div>
          <Label htmlFor="pay-received">Received on</Label>
          <input
            id="pay-received"
            type="date"
            {...register("received_on")}
            {...errorAttrs("pay-received-error", e.received_on ? "Choose the date the payment was received." : undefined)}
            className={field.input}
          />
          <FieldError id="pay-received-error" message={e.received_on ? "Choose the date the payment was received." : undefined} />
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <Label htmlFor="pay-payer">Payer</Label>
          <input id="pay-payer" {...register("payer_name")} {...errorAttrs("pay-payer-error", e.payer_name?.message)} className={field.input} />
          <FieldError id="pay-payer-error" message={e.payer_name?.message} />
        </div>
        <div>
          <Label htmlFor="pay-reference">Payment reference</Label>
          <input
            id="pay-reference"
            {...register("reference")}
            {...errorAttrs("pay-reference-error", e.reference?.message)}
            className={field.input}
            placeholder="e.g. remittance text"
          />
          <FieldError id="pay-reference-error" message={e.reference?.message} />
        </div>
      </div>
      <div>
        <Label htmlFor="pay-note">Note</Label>
        <input id="pay-note" {...register("note")} {...errorAttrs("pay-note-error", e.note?.message)} className={field.input} />
        <FieldError id="pay-note-error" message={e.note?.message} />
      </div>
      <FeedbackMessage feedback={feedback} />
      <button type="submit" className={btn.primary} disabled={pending}>
        Record payment
      </button>
    </form>
  );
}
