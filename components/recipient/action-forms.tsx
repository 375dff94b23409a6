"use client";

import { useId, useState, type FormEvent } from "react";
import { formatDate } from "@/lib/format/dates";
import { decimalInputToMinor, formatMinor, minorDigits } from "@/lib/money/format";
import type { TRecipientAction, TRecipientInvoice } from "@/lib/schemas/recipient";
import { decimalSeparator, issuerOf, todayUtc } from "@/components/recipient/present";
import { useI18n } from "@/components/recipient/i18n";
import { Card, FormAlert, SubmitButton } from "@/components/recipient/ui";
import { ActionForm, FormField, Optional, bind, isDate, useSubmit } from "@/components/recipient/form-kit";

// The recipient's actions as plain forms. The checks mirror the API's rules for these
// fields (lib/schemas/recipient.ts: dates YYYY-MM-DD, amount a positive number of minor
// units, reference <= 200, note and message 1..4000 characters); the API checks again and
// its 422 is shown next to the form. No form or schema library is shipped to the payer's
// phone: these few rules are cheaper than the libraries.

export type Act = (body: TRecipientAction, success: string) => Promise<string | null>; // -> error message or null

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
      <ActionForm s={s} onSubmit={onSubmit} className="" busyText={t("date.busy")} submit={t("date.submit")}>
        <FormField
          formId={id}
          name="expected_payment_date"
          idPart="date"
          type="date"
          narrow
          label={t("date.label")}
          error={invalid ? t("date.error") : undefined}
          attrs={{ min: todayUtc() }}
          control={bind(date, setDate)}
        />
      </ActionForm>
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
  const optional = <Optional>{t("report.optional")}</Optional>;
  return (
    <Card id="report-payment" title={t("report.title")} description={t("report.description")}>
      <ActionForm s={s} onSubmit={onSubmit} busyText={t("report.busy")} submit={t("report.submit")}>
        <FormField
          formId={id}
          name="reported_payment_date"
          idPart="date"
          type="date"
          narrow
          label={t("report.date")}
          error={errors.reported_payment_date}
          attrs={{ max: today }}
          control={field("reported_payment_date")}
        />
        <FormField
          formId={id}
          name="amount"
          narrow
          label={
            <>
              {t("report.amount", { currency: inv.currency })} {optional}
            </>
          }
          hint={t("report.amountHint", { example: digits ? `1250${decimalSeparator(locale)}${"0".repeat(digits)}` : "1250" })}
          error={errors.amount}
          attrs={{ inputMode: "decimal", autoComplete: "off" }}
          control={field("amount")}
        />
        <FormField
          formId={id}
          name="reference"
          label={
            <>
              {t("report.reference")} {optional}
            </>
          }
          hint={t("report.referenceHint")}
          error={errors.reference}
          attrs={{ autoComplete: "off" }}
          control={field("reference")}
        />
        <FormField
          formId={id}
          name="note"
          rows={2}
          label={
            <>
              {t("report.note")} {optional}
            </>
          }
          error={errors.note}
          control={field("note")}
        />
      </ActionForm>
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
    <ActionForm s={s} onSubmit={onSubmit} className="mt-4 print:hidden" busyText={t("msg.busy")} submit={t("msg.submit")}>
      <FormField
        formId={id}
        name="message"
        rows={3}
        label={t("msg.label", { issuer: issuerOf(inv, t) })}
        hint={t("msg.count", { n: message.length })}
        error={invalid ? t("msg.error") : undefined}
        attrs={{ maxLength: 4000 }}
        control={bind(message, setMessage)}
      />
    </ActionForm>
  );
}
