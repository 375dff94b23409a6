"use client";

import { useId, useState, type FormEvent } from "react";
import { formatDate } from "@/lib/format/dates";
import { decimalInputToMinor, formatMinor, minorDigits } from "@/lib/money/format";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import type { Act } from "@/components/recipient/action-forms";
import { issuerOf, todayUtc } from "@/components/recipient/present";
import { useI18n } from "@/components/recipient/i18n";
import { Card, FieldError, labelClass } from "@/components/recipient/ui";
import { ActionForm, FormField, Optional, bind, useSubmit } from "@/components/recipient/form-kit";

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

// ---------------------------------------------------------------- dispute

export function DisputeCard({ inv, act }: { inv: TRecipientInvoice; act: Act }) {
  const { t, locale } = useI18n();
  const id = useId();
  const s = useSubmit();
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
    // (the API refuses more than the invoice's amount too, in English: said here in the page's language)
    else if (minor !== null && BigInt(minor) > BigInt(inv.amount_minor))
      errs.amount = t("dispute.amountTooHigh", { amount: formatMinor(inv.amount_minor, inv.currency, { locale }) });
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
        <ActionForm s={s} onSubmit={onSubmit} busyText={t("report.busy")} submit={t("dispute.submit")}>
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
          <FormField
            formId={id}
            name="message"
            rows={3}
            label={t("dispute.message")}
            error={errors.message}
            attrs={{ maxLength: 4000 }}
            control={bind(message, setMessage)}
          />
          <FormField
            formId={id}
            name="amount"
            narrow
            label={
              <>
                {t("dispute.amount", { currency: inv.currency })} <Optional>{t("report.optional")}</Optional>
              </>
            }
            hint={t("dispute.amountHint")}
            error={errors.amount}
            attrs={{ inputMode: "decimal", autoComplete: "off" }}
            control={bind(amount, setAmount)}
          />
        </ActionForm>
      )}
    </Card>
  );
}

// ---------------------------------------------------------------- promise

export function PromiseCard({ inv, act, outstandingMinor }: { inv: TRecipientInvoice; act: Act; outstandingMinor: string }) {
  const { t, locale } = useI18n();
  const id = useId();
  const s = useSubmit();
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
    else if (minor !== null && BigInt(minor) > BigInt(outstandingMinor)) errs.amount = t("promise.amountTooHigh", { amount: money(outstandingMinor) });
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
      <ActionForm s={s} onSubmit={onSubmit} busyText={t("report.busy")} submit={t("promise.submit")}>
        <FormField
          formId={id}
          name="date"
          type="date"
          narrow
          label={t("promise.date")}
          error={errors.date}
          attrs={{ min: today, max: last }}
          control={bind(date, setDate)}
        />
        <FormField
          formId={id}
          name="amount"
          narrow
          label={
            <>
              {t("promise.amount", { currency: inv.currency })} <Optional>{t("report.optional")}</Optional>
            </>
          }
          hint={t("promise.amountHint", { amount: money(outstandingMinor) })}
          error={errors.amount}
          attrs={{ inputMode: "decimal", autoComplete: "off" }}
          control={bind(amount, setAmount)}
        />
      </ActionForm>
    </Card>
  );
}
