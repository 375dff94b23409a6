"use client";

import { useId, useState, type FormEvent } from "react";
import { formatDate } from "@/lib/format/dates";
import { decimalInputToMinor, formatMinor, minorDigits } from "@/lib/money/format";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import type { Act } from "@/components/recipient/action-forms";
import { issuerOf, todayUtc } from "@/components/recipient/present";
import { useI18n } from "@/components/recipient/i18n";
import { Card, FieldError, FormAlert, SubmitButton, hintClass, inputClass, labelClass } from "@/components/recipient/ui";

// "Something is wrong" (dispute) and "I will pay on …" (promise_payment), with their state.
// The checks mirror lib/schemas/recipient.ts (reason one of five, message 1..4000, a date
// from today up to 180 days ahead, amounts positive minor units); the API checks again.

const REASONS = ["not_received", "wrong_amount", "already_paid", "quality", "other"] as const;
type Reason = (typeof REASONS)[number];
const HORIZON_DAYS = 180;

function addDaysUtc(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function useBusy() {
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

// ---------------------------------------------------------------- dispute

export function DisputeCard({ inv, act }: { inv: TRecipientInvoice; act: Act }) {
  const { t, locale } = useI18n();
  const id = useId();
  const s = useBusy();
  const issuer = issuerOf(inv, t);
  const [reason, setReason] = useState<Reason | "">("");
  const [message, setMessage] = useState("");
  const [amount, setAmount] = useState("");
  const [errors, setErrors] = useState<Partial<Record<"reason" | "message" | "amount", string>>>({});
  const d = inv.dispute;
  const open = d?.status === "open";
  const reasonText = (r: string) => t(`dispute.reason.${r as Reason}`);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const errs: typeof errors = {};
    if (!reason) errs.reason = t("dispute.reasonError");
    if (message.trim().length < 1 || message.length > 4000) errs.message = t("dispute.messageError");
    const minor = amount.trim() ? decimalInputToMinor(amount, inv.currency) : null;
    if (amount.trim() && minor === null) errs.amount = t("report.amountError", { digits: minorDigits(inv.currency) });
    setErrors(errs);
    if (Object.keys(errs).length || !reason) return;
    const err = await s.run(() =>
      act(
        { action: "dispute", expected_version: inv.version, reason, message: message.trim(), ...(minor ? { amount_minor: minor } : {}) },
        t("dispute.success", { issuer: issuerOf(inv, t) }),
      ),
    );
    if (!err) {
      setReason("");
      setMessage("");
      setAmount("");
    }
  };
  const describedBy = (k: keyof typeof errors, hint?: boolean) =>
    [hint ? `${id}-${k}-hint` : "", errors[k] ? `${id}-${k}-error` : ""].filter(Boolean).join(" ") || undefined;

  return (
    <Card id="dispute" title={t("dispute.title")} description={t("dispute.description", { issuer })}>
      {d && (
        <div data-testid="dispute-state" className="mb-4 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-900">
          <p className="font-medium">
            {open
              ? t("dispute.open", { date: formatDate(d.opened_at.slice(0, 10), locale), reason: reasonText(d.reason), issuer })
              : t(d.status === "accepted" ? "dispute.accepted" : "dispute.rejected", { issuer: issuerOf(inv, t, true) })}
          </p>
          {!open && d.resolution_message && <p className="mt-1 whitespace-pre-wrap">{d.resolution_message}</p>}
        </div>
      )}
      {!open && (
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          <fieldset aria-describedby={errors.reason ? `${id}-reason-error` : undefined}>
            <legend className={labelClass}>{t("dispute.reason")}</legend>
            <div className="mt-2 space-y-2">
              {REASONS.map((r) => (
                <label key={r} className="flex min-h-11 items-center gap-3 text-base text-slate-900">
                  <input type="radio" name="reason" value={r} checked={reason === r} onChange={() => setReason(r)} className="h-5 w-5 shrink-0" />
                  {reasonText(r)}
                </label>
              ))}
            </div>
            <FieldError id={`${id}-reason-error`} message={errors.reason} />
          </fieldset>
          <div>
            <label htmlFor={`${id}-message`} className={labelClass}>
              {t("dispute.message")}
            </label>
            <textarea
              id={`${id}-message`}
              name="message"
              rows={3}
              maxLength={4000}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              className={inputClass}
              aria-invalid={!!errors.message}
              aria-describedby={describedBy("message")}
            />
            <FieldError id={`${id}-message-error`} message={errors.message} />
          </div>
          <div>
            <label htmlFor={`${id}-amount`} className={labelClass}>
              {t("dispute.amount", { currency: inv.currency })} <span className="font-normal text-slate-600">{t("report.optional")}</span>
            </label>
            <input
              id={`${id}-amount`}
              name="amount"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              className={`${inputClass} sm:max-w-xs`}
              aria-invalid={!!errors.amount}
              aria-describedby={describedBy("amount", true)}
            />
            <p id={`${id}-amount-hint`} className={hintClass}>
              {t("dispute.amountHint")}
            </p>
            <FieldError id={`${id}-amount-error`} message={errors.amount} />
          </div>
          <SubmitButton busy={s.busy} busyText={t("report.busy")}>
            {t("dispute.submit")}
          </SubmitButton>
          <FormAlert message={s.error} />
        </form>
      )}
    </Card>
  );
}

// ---------------------------------------------------------------- promise

export function PromiseCard({ inv, act, outstandingMinor }: { inv: TRecipientInvoice; act: Act; outstandingMinor: string }) {
  const { t, locale } = useI18n();
  const id = useId();
  const s = useBusy();
  const today = todayUtc();
  const last = addDaysUtc(today, HORIZON_DAYS);
  const [date, setDate] = useState("");
  const [amount, setAmount] = useState("");
  const [errors, setErrors] = useState<Partial<Record<"date" | "amount", string>>>({});
  const p = inv.promise;
  const money = (minor: string) => formatMinor(minor, inv.currency, { locale });

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const errs: typeof errors = {};
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || date < today || date > last) errs.date = t("promise.dateError", { days: HORIZON_DAYS });
    const minor = amount.trim() ? decimalInputToMinor(amount, inv.currency) : null;
    if (amount.trim() && minor === null) errs.amount = t("report.amountError", { digits: minorDigits(inv.currency) });
    setErrors(errs);
    if (Object.keys(errs).length) return;
    const err = await s.run(() =>
      act(
        { action: "promise_payment", expected_version: inv.version, date, ...(minor ? { amount_minor: minor } : {}) },
        t("promise.success", { amount: money(minor ?? outstandingMinor), date: formatDate(date, locale) }),
      ),
    );
    if (!err) {
      setDate("");
      setAmount("");
    }
  };

  return (
    <Card id="promise" title={t("promise.title")} description={t("promise.description", { issuer: issuerOf(inv, t) })}>
      {p && (
        <p data-testid="promise-state" className="mb-4 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm font-medium text-slate-900">
          {t(p.status === "kept" ? "promise.kept" : p.status === "broken" ? "promise.broken" : "promise.open", {
            amount: money(p.amount_minor),
            date: formatDate(p.date, locale),
          })}
        </p>
      )}
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <div>
          <label htmlFor={`${id}-date`} className={labelClass}>
            {t("promise.date")}
          </label>
          <input
            id={`${id}-date`}
            name="date"
            type="date"
            min={today}
            max={last}
            value={date}
            onChange={(e) => setDate(e.target.value)}
            className={`${inputClass} sm:max-w-xs`}
            aria-invalid={!!errors.date}
            aria-describedby={errors.date ? `${id}-date-error` : undefined}
          />
          <FieldError id={`${id}-date-error`} message={errors.date} />
        </div>
        <div>
          <label htmlFor={`${id}-amount`} className={labelClass}>
            {t("promise.amount", { currency: inv.currency })} <span className="font-normal text-slate-600">{t("report.optional")}</span>
          </label>
          <input
            id={`${id}-amount`}
            name="amount"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            className={`${inputClass} sm:max-w-xs`}
            aria-invalid={!!errors.amount}
            aria-describedby={[`${id}-amount-hint`, errors.amount ? `${id}-amount-error` : ""].filter(Boolean).join(" ")}
          />
          <p id={`${id}-amount-hint`} className={hintClass}>
            {t("promise.amountHint", { amount: money(outstandingMinor) })}
          </p>
          <FieldError id={`${id}-amount-error`} message={errors.amount} />
        </div>
        <SubmitButton busy={s.busy} busyText={t("report.busy")}>
          {t("promise.submit")}
        </SubmitButton>
        <FormAlert message={s.error} />
      </form>
    </Card>
  );
}
