"use client";

import { useState } from "react";
import type { ReminderTone, TReminderPolicy, TReminderPolicyInput } from "@/lib/schemas/reminders";
import { DecimalField, FieldError, Label } from "@/components/ui/field";
import { useMutation } from "@/components/ui/use-mutation";
import { SettingsSave } from "@/components/settings/settings-save";
import { btn, field } from "@/components/ui/styles";

const DAYS = /^[+-]?\d{1,4}$/;
const PERCENT = /^\d{1,3}(?:[.,]\d{1,2})?$/;
const AMOUNT = /^\d{1,9}(?:[.,]\d{1,2})?$/;
const EMAIL = /^$|^[^\s@]+@[^\s@]+$/;

const TONES: { value: ReminderTone; label: string }[] = [
  { value: "friendly", label: "Friendly" },
  { value: "firm", label: "Firm" },
  { value: "final", label: "Final" },
];

// "2.15" -> 215 (hundredths)
function hundredths(s: string): number {
  const [whole, frac = ""] = s.trim().replace(",", ".").split(".");
  return Number(BigInt(whole) * 100n + BigInt(frac.padEnd(2, "0") || "0"));
}
const percentOf = (bp: number) =>
  `${Math.trunc(bp / 100)}${
    bp % 100
      ? `.${String(bp % 100)
          .padStart(2, "0")
          .replace(/0$/, "")}`
      : ""
  }`;
const decimal = (minor: string) => `${BigInt(minor) / 100n}.${(BigInt(minor) % 100n).toString().padStart(2, "0")}`;

function whenInWords(days: number): string {
  if (days === 0) return "on the due date";
  const n = Math.abs(days);
  return `${n} day${n === 1 ? "" : "s"} ${days < 0 ? "before" : "after"} the due date`;
}

type StepDraft = { days: string; tone: ReminderTone };

// PUT /reminder-policy: the steps (when, which tone), how reminders travel, who they come
// from and the late-payment interest shown, with what will happen in words.
export function ReminderPolicyForm({ current }: { current: TReminderPolicy }) {
  const { submit, pending, feedback } = useMutation();
  const [enabled, setEnabled] = useState(current.enabled);
  const [steps, setSteps] = useState<StepDraft[]>(
    current.steps.length ? current.steps.map((s) => ({ days: String(s.offset_days), tone: s.tone })) : [{ days: "-3", tone: "friendly" }],
  );
  const [channel, setChannel] = useState(current.channel);
  const [senderName, setSenderName] = useState(current.sender_name);
  const [replyTo, setReplyTo] = useState(current.reply_to);
  const i = current.late_payment_interest;
  const [interest, setInterest] = useState(i?.enabled ?? false);
  const [rate, setRate] = useState(i ? percentOf(i.reference_rate_basis_points) : "2.15");
  const [margin, setMargin] = useState(i ? percentOf(i.margin_basis_points) : "8");
  const [compensation, setCompensation] = useState(i?.fixed_compensation_minor ? decimal(i.fixed_compensation_minor) : "40.00");

  const stepErrors = steps.map((s, n) =>
    !DAYS.test(s.days.trim())
      ? "Enter a whole number of days, like -3 or 7."
      : steps.findIndex((o) => o.days.trim() !== "" && Number(o.days) === Number(s.days)) !== n
        ? "Another step already uses this day."
        : null,
  );
  const replyError = EMAIL.test(replyTo.trim()) ? null : "Enter an email address, like ar@example.com, or leave it empty.";
  const rateError = interest && !PERCENT.test(rate.trim()) ? "Enter a percentage like 2.15." : null;
  const marginError = interest && !PERCENT.test(margin.trim()) ? "Enter a percentage like 8." : null;
  const compensationError = interest && !AMOUNT.test(compensation.trim()) ? "Enter an amount like 40.00." : null;
  const valid = stepErrors.every((e) => e === null) && !replyError && !rateError && !marginError && !compensationError;
  const body: TReminderPolicyInput | null = valid
    ? {
        enabled,
        steps: steps.map((s) => ({ offset_days: Number(s.days), tone: s.tone })),
        channel,
        sender_name: senderName.trim(),
        reply_to: replyTo.trim(),
        late_payment_interest:
          interest || i
            ? {
                enabled: interest,
                reference_rate_basis_points: PERCENT.test(rate.trim()) ? hundredths(rate) : 0,
                margin_basis_points: PERCENT.test(margin.trim()) ? hundredths(margin) : 0,
                ...(AMOUNT.test(compensation.trim()) ? { fixed_compensation_minor: String(hundredths(compensation)) } : {}),
              }
            : null,
      }
    : null;

  const words: string[] = [];
  if (!enabled) words.push("No reminders go out.");
  else {
    const ordered = [...steps].filter((s) => DAYS.test(s.days.trim())).sort((a, b) => Number(a.days) - Number(b.days));
    for (const s of ordered) words.push(`A ${s.tone} reminder ${whenInWords(Number(s.days))}.`);
    words.push(
      channel === "email"
        ? "Sent by email to the payer's address, with a link to the payment page. Without an address, your webhook receives it to send."
        : "Your webhook receives each reminder's texts to send it yourself.",
    );
    if (interest && !rateError && !marginError)
      words.push(`Overdue reminders mention late-payment interest at ${percentOf(hundredths(rate) + hundredths(margin))} % a year, for information only.`);
  }

  const setStep = (n: number, patch: Partial<StepDraft>) => setSteps((all) => all.map((s, k) => (k === n ? { ...s, ...patch } : s)));

  return (
    <form
      noValidate
      aria-label="Reminder policy"
      className="space-y-5"
      onSubmit={async (e) => {
        e.preventDefault();
        if (!body) return;
        await submit({ method: "PUT", path: "/reminder-policy", body, success: "Saved. The next sweep follows this policy." });
      }}
    >
      <label className="flex items-start gap-2 text-sm font-medium text-slate-800">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} className="mt-1" />
        <span>Send reminders</span>
      </label>

      <fieldset>
        <legend className={field.label}>Steps</legend>
        <p className={field.hint}>Days from the due date: a negative number is before it, a positive one after it.</p>
        <ul className="mt-2 space-y-3">
          {steps.map((s, n) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: steps have no identity but their position while edited
            <li key={n} className="grid grid-cols-[1fr_1fr_auto] items-end gap-2">
              <div>
                <Label htmlFor={`step-${n}-days`}>{`Step ${n + 1}: days`}</Label>
                <input
                  id={`step-${n}-days`}
                  inputMode="numeric"
                  className={field.input}
                  value={s.days}
                  onChange={(e) => setStep(n, { days: e.target.value })}
                  aria-invalid={stepErrors[n] ? true : undefined}
                  aria-describedby={stepErrors[n] ? `step-${n}-error` : undefined}
                />
              </div>
              <div>
                <Label htmlFor={`step-${n}-tone`}>{`Step ${n + 1}: tone`}</Label>
                <select id={`step-${n}-tone`} className={field.input} value={s.tone} onChange={(e) => setStep(n, { tone: e.target.value as ReminderTone })}>
                  {TONES.map((t) => (
                    <option key={t.value} value={t.value}>
                      {t.label}
                    </option>
                  ))}
                </select>
              </div>
              <button
                type="button"
                className={btn.secondary}
                onClick={() => setSteps((all) => all.filter((_, k) => k !== n))}
                aria-label={`Remove step ${n + 1}`}
              >
                Remove
              </button>
              <div className="col-span-3">
                <FieldError id={`step-${n}-error`} message={stepErrors[n]} />
              </div>
            </li>
          ))}
        </ul>
        {steps.length < 10 && (
          <button type="button" className={`${btn.secondary} mt-2`} onClick={() => setSteps((all) => [...all, { days: "7", tone: "firm" }])}>
            Add a step
          </button>
        )}
      </fieldset>

      <fieldset>
        <legend className={field.label}>How reminders travel</legend>
        <div className="mt-2 space-y-2">
          <label className="flex items-start gap-2 text-sm">
            <input type="radio" name="channel" value="email" checked={channel === "email"} onChange={() => setChannel("email")} className="mt-1" />
            <span>By email from this service</span>
          </label>
          <label className="flex items-start gap-2 text-sm">
            <input type="radio" name="channel" value="webhook" checked={channel === "webhook"} onChange={() => setChannel("webhook")} className="mt-1" />
            <span>To my webhook, which sends them</span>
          </label>
        </div>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor="sender-name">Sender name</Label>
          <input id="sender-name" className={field.input} value={senderName} maxLength={120} onChange={(e) => setSenderName(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="reply-to">Replies go to</Label>
          <input
            id="reply-to"
            type="email"
            className={field.input}
            value={replyTo}
            onChange={(e) => setReplyTo(e.target.value)}
            aria-invalid={replyError ? true : undefined}
            aria-describedby={replyError ? "reply-to-error" : undefined}
          />
          <FieldError id="reply-to-error" message={replyError} />
        </div>
      </div>

      <div>
        <label className="flex items-start gap-2 text-sm font-medium text-slate-800">
          <input type="checkbox" checked={interest} onChange={(e) => setInterest(e.target.checked)} className="mt-1" />
          <span>Mention late-payment interest (for information; amounts owed do not change)</span>
        </label>
        {interest && (
          <div className="mt-3 grid gap-4 sm:grid-cols-3">
            <DecimalField id="ref-rate" label="Reference rate (%)" value={rate} onChange={setRate} error={rateError} />
            <DecimalField id="margin" label="Margin (%)" value={margin} onChange={setMargin} error={marginError} />
            <DecimalField
              id="compensation"
              label="Fixed compensation"
              value={compensation}
              onChange={setCompensation}
              error={compensationError}
              hint="In the invoice's currency."
            />
          </div>
        )}
      </div>

      <SettingsSave words={words} feedback={feedback} pending={pending} ready={body !== null} label="Save policy" />
    </form>
  );
}
