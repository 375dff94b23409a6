"use client";

import { useId, useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { formatDate } from "@/lib/format/dates";
import { decimalInputToMinor, formatMinor, minorDigits } from "@/lib/money/format";
import { ZRecipientAcknowledge, ZRecipientPostMessage, ZRecipientReportPayment, ZRecipientShareDates, type TRecipientAction, type TRecipientInvoice } from "@/lib/schemas/recipient";
import { todayUtc } from "@/components/recipient/present";
import { Card, FieldError, FormAlert, SubmitButton, hintClass, inputClass, labelClass } from "@/components/recipient/ui";

// The recipient's actions as forms. Each validates with the very schema the API uses
// (lib/schemas/recipient.ts) before anything is sent: the form's fields are picked from
// the action schema, and the full body is parsed with it again on submit.

export type Act = (body: TRecipientAction, success: string) => Promise<string | null>; // -> error message or null
type Locale = readonly string[] | undefined;

// ---------------------------------------------------------------- acknowledge

export function AcknowledgeCard({ inv, act }: { inv: TRecipientInvoice; act: Act }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const issuer = inv.issuer_name || "the sender";
  return (
    <Card id="acknowledge" title="Confirm you received this" description={`Let ${issuer} know the request reached you and is being handled.`}>
      {inv.acknowledged ? (
        <p className="text-sm font-medium text-emerald-900">You confirmed that you received this request.</p>
      ) : (
        <form
          noValidate
          onSubmit={async (e) => {
            e.preventDefault();
            const body = ZRecipientAcknowledge.parse({ action: "acknowledge", expected_version: inv.version });
            setBusy(true);
            setError(await act(body, `${issuer} can now see that you received this request.`));
            setBusy(false);
          }}
        >
          <SubmitButton busy={busy} busyText="Confirming…">
            Confirm receipt
          </SubmitButton>
          <FormAlert message={error} />
        </form>
      )}
    </Card>
  );
}

// ---------------------------------------------------------------- share an expected payment date

const ZShareDatesForm = ZRecipientShareDates.pick({ expected_payment_date: true });

export function ShareDateCard({ inv, act, locale }: { inv: TRecipientInvoice; act: Act; locale: Locale }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<z.input<typeof ZShareDatesForm>, unknown, z.output<typeof ZShareDatesForm>>({
    resolver: zodResolver(ZShareDatesForm),
    defaultValues: { expected_payment_date: inv.expected_payment_date || "" },
  });
  const err = form.formState.errors.expected_payment_date;
  const onSubmit = form.handleSubmit(async (values) => {
    const body = ZRecipientShareDates.parse({ action: "share_dates", expected_version: inv.version, ...values });
    setError(await act(body, `Thank you. ${inv.issuer_name || "The sender"} now knows you expect to pay on ${formatDate(values.expected_payment_date, locale)}.`));
  });
  return (
    <Card
      id="share-date"
      title="When will you pay?"
      description={inv.expected_payment_date ? `You said you expect to pay on ${formatDate(inv.expected_payment_date, locale)}. You can change it.` : "Share the date you expect to pay. It helps the sender plan and avoids reminders."}
    >
      <form noValidate onSubmit={onSubmit}>
        <label htmlFor={`${id}-date`} className={labelClass}>
          Expected payment date
        </label>
        <input
          id={`${id}-date`}
          type="date"
          min={todayUtc()}
          className={`${inputClass} sm:max-w-xs`}
          aria-invalid={!!err}
          aria-describedby={err ? `${id}-date-error` : undefined}
          {...form.register("expected_payment_date")}
        />
        <FieldError id={`${id}-date-error`} message={err ? "Enter a date, for example 2026-12-31." : undefined} />
        <SubmitButton busy={form.formState.isSubmitting} busyText="Sharing…">
          Share date
        </SubmitButton>
        <FormAlert message={error} />
      </form>
    </Card>
  );
}

// ---------------------------------------------------------------- report a payment

export function ReportPaymentCard({ inv, act, locale, suggestedMinor }: { inv: TRecipientInvoice; act: Act; locale: Locale; suggestedMinor: string }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const today = todayUtc();
  const digits = minorDigits(inv.currency);
  // The API's fields, plus `amount` as a person types it (converted to amount_minor, then
  // checked by the API's ZMinor through ZRecipientReportPayment on submit).
  const schema = useMemo(
    () =>
      ZRecipientReportPayment.pick({ reported_payment_date: true, reference: true, note: true })
        .extend({ amount: z.string().max(40) })
        .superRefine((v, ctx) => {
          if (v.amount.trim() !== "" && decimalInputToMinor(v.amount, inv.currency) === null) {
            ctx.addIssue({ code: "custom", path: ["amount"], message: "amount" });
          }
          if (v.reported_payment_date > today) ctx.addIssue({ code: "custom", path: ["reported_payment_date"], message: "future" });
        }),
    [inv.currency, today],
  );
  const suggested = suggestedMinor !== "0" ? decimalOf(suggestedMinor, digits) : "";
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { reported_payment_date: today, amount: suggested, reference: "", note: "" },
  });
  const e = form.formState.errors;
  const onSubmit = form.handleSubmit(async (v) => {
    const minor = v.amount.trim() ? decimalInputToMinor(v.amount, inv.currency) : null;
    const body = ZRecipientReportPayment.parse({
      action: "report_payment",
      expected_version: inv.version,
      reported_payment_date: v.reported_payment_date,
      ...(minor ? { amount_minor: minor } : {}),
      ...(v.reference?.trim() ? { reference: v.reference.trim() } : {}),
      ...(v.note?.trim() ? { note: v.note.trim() } : {}),
    });
    const err = await act(body, `Thank you. ${inv.issuer_name || "The sender"} has been told about your payment${minor ? ` of ${formatMinor(minor, inv.currency, { locale })}` : ""} and will confirm it when it arrives.`);
    setError(err);
    if (!err) form.reset({ reported_payment_date: today, amount: "", reference: "", note: "" });
  });
  const describedBy = (field: string, hint?: boolean) => [hint ? `${id}-${field}-hint` : "", e[field as keyof typeof e] ? `${id}-${field}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <Card
      id="report-payment"
      title="Tell us you have paid"
      description="This lets the sender know a payment is on its way. It does not move money: the sender confirms the payment once it arrives."
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <div>
          <label htmlFor={`${id}-date`} className={labelClass}>
            Date you paid
          </label>
          <input id={`${id}-date`} type="date" max={today} className={`${inputClass} sm:max-w-xs`} aria-invalid={!!e.reported_payment_date} aria-describedby={describedBy("reported_payment_date")} {...form.register("reported_payment_date")} />
          <FieldError id={`${id}-reported_payment_date-error`} message={e.reported_payment_date ? (e.reported_payment_date.message === "future" ? "The date cannot be in the future." : "Enter the date you paid.") : undefined} />
        </div>
        <div>
          <label htmlFor={`${id}-amount`} className={labelClass}>
            Amount paid ({inv.currency}) <span className="font-normal text-slate-600">optional</span>
          </label>
          <input id={`${id}-amount`} type="text" inputMode="decimal" autoComplete="off" className={`${inputClass} sm:max-w-xs`} aria-invalid={!!e.amount} aria-describedby={describedBy("amount", true)} {...form.register("amount")} />
          <p id={`${id}-amount-hint`} className={hintClass}>
            Numbers only, for example {digits ? `1250.${"0".repeat(digits)}` : "1250"}.
          </p>
          <FieldError id={`${id}-amount-error`} message={e.amount ? `Enter an amount above zero with at most ${digits} decimal places, without thousands separators.` : undefined} />
        </div>
        <div>
          <label htmlFor={`${id}-reference`} className={labelClass}>
            Payment reference <span className="font-normal text-slate-600">optional</span>
          </label>
          <input id={`${id}-reference`} type="text" autoComplete="off" className={inputClass} aria-invalid={!!e.reference} aria-describedby={describedBy("reference", true)} {...form.register("reference")} />
          <p id={`${id}-reference-hint`} className={hintClass}>
            The reference you used on the transfer, if any.
          </p>
          <FieldError id={`${id}-reference-error`} message={e.reference ? "Use at most 200 characters." : undefined} />
        </div>
        <div>
          <label htmlFor={`${id}-note`} className={labelClass}>
            Note <span className="font-normal text-slate-600">optional</span>
          </label>
          <textarea id={`${id}-note`} rows={2} className={inputClass} aria-invalid={!!e.note} aria-describedby={describedBy("note")} {...form.register("note")} />
          <FieldError id={`${id}-note-error`} message={e.note ? "Use at most 4000 characters." : undefined} />
        </div>
        <SubmitButton busy={form.formState.isSubmitting} busyText="Sending…">
          Report payment
        </SubmitButton>
        <FormAlert message={error} />
      </form>
    </Card>
  );
}

// "125000", 2 -> "1250.00" (for the amount field; the person's own notation is not guessed)
function decimalOf(minor: string, digits: number): string {
  if (digits === 0) return minor;
  const p = minor.padStart(digits + 1, "0");
  return `${p.slice(0, -digits)}.${p.slice(-digits)}`;
}

// ---------------------------------------------------------------- messages

const ZMessageForm = ZRecipientPostMessage.pick({ message: true });

export function MessageForm({ inv, act }: { inv: TRecipientInvoice; act: Act }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<z.input<typeof ZMessageForm>, unknown, z.output<typeof ZMessageForm>>({ resolver: zodResolver(ZMessageForm), defaultValues: { message: "" } });
  const e = form.formState.errors.message;
  const length = form.watch("message")?.length ?? 0;
  const onSubmit = form.handleSubmit(async (v) => {
    const body = ZRecipientPostMessage.parse({ action: "post_message", expected_version: inv.version, message: v.message });
    const err = await act(body, `Your message was sent to ${inv.issuer_name || "the sender"}.`);
    setError(err);
    if (!err) form.reset({ message: "" });
  });
  return (
    <form noValidate onSubmit={onSubmit} className="mt-4">
      <label htmlFor={`${id}-message`} className={labelClass}>
        Write a message to {inv.issuer_name || "the sender"}
      </label>
      <textarea
        id={`${id}-message`}
        rows={3}
        maxLength={4000}
        className={inputClass}
        aria-invalid={!!e}
        aria-describedby={`${id}-count${e ? ` ${id}-message-error` : ""}`}
        {...form.register("message")}
      />
      <p id={`${id}-count`} className={hintClass}>
        {length} of 4000 characters
      </p>
      <FieldError id={`${id}-message-error`} message={e ? "Write a message of 1 to 4000 characters." : undefined} />
      <SubmitButton busy={form.formState.isSubmitting} busyText="Sending…">
        Send message
      </SubmitButton>
      <FormAlert message={error} />
    </form>
  );
}
