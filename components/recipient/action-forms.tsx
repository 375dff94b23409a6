"use client";

import { useId, useState, type FormEvent } from "react";
import { formatDate } from "@/lib/format/dates";
import { decimalInputToMinor, formatMinor, minorDigits } from "@/lib/money/format";
import type { TRecipientAction, TRecipientInvoice } from "@/lib/schemas/recipient";
import { decimalSeparator, issuerOf, todayUtc } from "@/components/recipient/present";
import { useI18n } from "@/components/recipient/i18n";
import { Card, FieldError, FormAlert, SubmitButton, hintClass, inputClass, labelClass } from "@/components/recipient/ui";

// The recipient's actions as plain forms. The checks mirror the API's rules for these
// fields (lib/schemas/recipient.ts: dates YYYY-MM-DD, amount a positive number of minor
// units, reference <= 200, note and message 1..4000 characters); the API checks again and
// its 422 is shown next to the form. No form or schema library is shipped to the payer's
// phone: these few rules are cheaper than the libraries.

export type Act = (body: TRecipientAction, success: string) => Promise<string | null>; // -> error message or null

const isDate = (s: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

// A submission that is not sent twice while it runs.
function useSubmit() {
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

// ---------------------------------------------------------------- acknowledge

export function AcknowledgeCard({ inv, act }: { inv: TRecipientInvoice; act: Act }) {
  const { t } = useI18n();
  const s = useSubmit();
  const issuer = issuerOf(inv, t);
  return (
    <Card id="acknowledge" title={t("ack.title")} description={t("ack.description", { issuer })}>
      {inv.acknowledged ? (
        <p className="text-sm font-medium text-emerald-900">{t("ack.done")}</p>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void s.run(() => act({ action: "acknowledge", expected_version: inv.version }, t("ack.success", { issuer: issuerOf(inv, t, true) })));
          }}
        >
          <SubmitButton busy={s.busy} busyText={t("ack.busy")}>
            {t("ack.submit")}
          </SubmitButton>
          <FormAlert message={s.error} />
        </form>
      )}
    </Card>
  );
}

// ---------------------------------------------------------------- share an expected payment date

export function ShareDateCard({ inv, act }: { inv: TRecipientInvoice; act: Act }) {
  const { t, locale } = useI18n();
  const id = useId();
  const s = useSubmit();
  const [date, setDate] = useState(inv.expected_payment_date || "");
  const [invalid, setInvalid] = useState(false);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!isDate(date)) return setInvalid(true);
    setInvalid(false);
    void s.run(() =>
      act(
        { action: "share_dates", expected_version: inv.version, expected_payment_date: date },
        t("date.success", { issuer: issuerOf(inv, t, true), date: formatDate(date, locale) }),
      ),
    );
  };
  return (
    <Card
      id="share-date"
      title={t("date.title")}
      description={inv.expected_payment_date ? t("date.descriptionSet", { date: formatDate(inv.expected_payment_date, locale) }) : t("date.description")}
    >
      <form noValidate onSubmit={onSubmit}>
        <label htmlFor={`${id}-date`} className={labelClass}>
          {t("date.label")}
        </label>
        <input
          id={`${id}-date`}
          name="expected_payment_date"
          type="date"
          min={todayUtc()}
          value={date}
          onChange={(e) => setDate(e.target.value)}
          className={`${inputClass} sm:max-w-xs`}
          aria-invalid={invalid}
          aria-describedby={invalid ? `${id}-date-error` : undefined}
        />
        <FieldError id={`${id}-date-error`} message={invalid ? t("date.error") : undefined} />
        <SubmitButton busy={s.busy} busyText={t("date.busy")}>
          {t("date.submit")}
        </SubmitButton>
        <FormAlert message={s.error} />
      </form>
    </Card>
  );
}

// ---------------------------------------------------------------- report a payment

type ReportErrors = Partial<Record<"reported_payment_date" | "amount" | "reference" | "note", string>>;

export function ReportPaymentCard({ inv, act, suggestedMinor }: { inv: TRecipientInvoice; act: Act; suggestedMinor: string }) {
  const { t, locale } = useI18n();
  const id = useId();
  const s = useSubmit();
  const today = todayUtc();
  const digits = minorDigits(inv.currency);
  const empty = { reported_payment_date: today, amount: "", reference: "", note: "" };
  const [v, setV] = useState({ ...empty, amount: suggestedMinor !== "0" ? decimalOf(suggestedMinor, digits, decimalSeparator(locale)) : "" });
  const [errors, setErrors] = useState<ReportErrors>({});
  const field = (k: keyof typeof v) => ({ value: v[k], onChange: (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value }) });

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const errs: ReportErrors = {};
    if (!isDate(v.reported_payment_date)) errs.reported_payment_date = t("report.dateMissing");
    else if (v.reported_payment_date > today) errs.reported_payment_date = t("report.dateFuture");
    const minor = v.amount.trim() ? decimalInputToMinor(v.amount, inv.currency) : null;
    if (v.amount.trim() && minor === null) errs.amount = t("report.amountError", { digits });
    if (v.reference.trim().length > 200) errs.reference = t("report.referenceError");
    if (v.note.trim().length > 4000) errs.note = t("report.noteError");
    setErrors(errs);
    if (Object.keys(errs).length) return;
    const body: TRecipientAction = {
      action: "report_payment",
      expected_version: inv.version,
      reported_payment_date: v.reported_payment_date,
      ...(minor ? { amount_minor: minor } : {}),
      ...(v.reference.trim() ? { reference: v.reference.trim() } : {}),
      ...(v.note.trim() ? { note: v.note.trim() } : {}),
    };
    const issuer = issuerOf(inv, t, true);
    const success = minor ? t("report.successAmount", { issuer, amount: formatMinor(minor, inv.currency, { locale }) }) : t("report.success", { issuer });
    const err = await s.run(() => act(body, success));
    if (!err) setV(empty);
  };
  const describedBy = (k: keyof ReportErrors, hint?: boolean) =>
    [hint ? `${id}-${k}-hint` : "", errors[k] ? `${id}-${k}-error` : ""].filter(Boolean).join(" ") || undefined;
  const optional = <span className="font-normal text-slate-600">{t("report.optional")}</span>;
  return (
    <Card id="report-payment" title={t("report.title")} description={t("report.description")}>
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <div>
          <label htmlFor={`${id}-date`} className={labelClass}>
            {t("report.date")}
          </label>
          <input
            id={`${id}-date`}
            name="reported_payment_date"
            type="date"
            max={today}
            className={`${inputClass} sm:max-w-xs`}
            aria-invalid={!!errors.reported_payment_date}
            aria-describedby={describedBy("reported_payment_date")}
            {...field("reported_payment_date")}
          />
          <FieldError id={`${id}-reported_payment_date-error`} message={errors.reported_payment_date} />
        </div>
        <div>
          <label htmlFor={`${id}-amount`} className={labelClass}>
            {t("report.amount", { currency: inv.currency })} {optional}
          </label>
          <input
            id={`${id}-amount`}
            name="amount"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            className={`${inputClass} sm:max-w-xs`}
            aria-invalid={!!errors.amount}
            aria-describedby={describedBy("amount", true)}
            {...field("amount")}
          />
          <p id={`${id}-amount-hint`} className={hintClass}>
            {t("report.amountHint", { example: digits ? `1250${decimalSeparator(locale)}${"0".repeat(digits)}` : "1250" })}
          </p>
          <FieldError id={`${id}-amount-error`} message={errors.amount} />
        </div>
        <div>
          <label htmlFor={`${id}-reference`} className={labelClass}>
            {t("report.reference")} {optional}
          </label>
          <input
            id={`${id}-reference`}
            name="reference"
            type="text"
            autoComplete="off"
            className={inputClass}
            aria-invalid={!!errors.reference}
            aria-describedby={describedBy("reference", true)}
            {...field("reference")}
          />
          <p id={`${id}-reference-hint`} className={hintClass}>
            {t("report.referenceHint")}
          </p>
          <FieldError id={`${id}-reference-error`} message={errors.reference} />
        </div>
        <div>
          <label htmlFor={`${id}-note`} className={labelClass}>
            {t("report.note")} {optional}
          </label>
          <textarea
            id={`${id}-note`}
            name="note"
            rows={2}
            className={inputClass}
            aria-invalid={!!errors.note}
            aria-describedby={describedBy("note")}
            {...field("note")}
          />
          <FieldError id={`${id}-note-error`} message={errors.note} />
        </div>
        <SubmitButton busy={s.busy} busyText={t("report.busy")}>
          {t("report.submit")}
        </SubmitButton>
        <FormAlert message={s.error} />
      </form>
    </Card>
  );
}

// "125000", 2 -> "1250.00" (for the amount field; the person's own notation is not guessed)
function decimalOf(minor: string, digits: number, separator: string): string {
  if (digits === 0) return minor;
  const p = minor.padStart(digits + 1, "0");
  return `${p.slice(0, -digits)}${separator}${p.slice(-digits)}`;
}

// ---------------------------------------------------------------- messages

export function MessageForm({ inv, act }: { inv: TRecipientInvoice; act: Act }) {
  const { t } = useI18n();
  const id = useId();
  const s = useSubmit();
  const [message, setMessage] = useState("");
  const [invalid, setInvalid] = useState(false);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (message.length < 1 || message.length > 4000) return setInvalid(true);
    setInvalid(false);
    const err = await s.run(() => act({ action: "post_message", expected_version: inv.version, message }, t("msg.success", { issuer: issuerOf(inv, t) })));
    if (!err) setMessage("");
  };
  return (
    <form noValidate onSubmit={onSubmit} className="mt-4 print:hidden">
      <label htmlFor={`${id}-message`} className={labelClass}>
        {t("msg.label", { issuer: issuerOf(inv, t) })}
      </label>
      <textarea
        id={`${id}-message`}
        name="message"
        rows={3}
        maxLength={4000}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        className={inputClass}
        aria-invalid={invalid}
        aria-describedby={`${id}-count${invalid ? ` ${id}-message-error` : ""}`}
      />
      <p id={`${id}-count`} className={hintClass}>
        {t("msg.count", { n: message.length })}
      </p>
      <FieldError id={`${id}-message-error`} message={invalid ? t("msg.error") : undefined} />
      <SubmitButton busy={s.busy} busyText={t("msg.busy")}>
        {t("msg.submit")}
      </SubmitButton>
      <FormAlert message={s.error} />
    </form>
  );
}
