"use client";

import { useEffect, useState } from "react";
import { describeApiError } from "@/lib/client/errors";
import { parseDecimalToMinor } from "@/lib/money/format";
import { ZDate } from "@/lib/schemas/common";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FeedbackMessage } from "@/components/ui/feedback";
import { FieldError, Label, errorAttrs } from "@/components/ui/field";
import { btn, field } from "@/components/ui/styles";
import { useMutation } from "@/components/ui/use-mutation";
import { useObligationMutation, useOptionalObligation } from "@/components/obligations/obligation-context";

// The corrections of an obligation (docs/obligations.md, Lifecycle): amend while nothing is settled, a
// credit, a cancellation behind a confirmation that says what it does, and the reversal of
// an allocation or a credit with its reason asked.

type Errors = Record<string, string>;

export type AmendValues = {
  amount: string; // decimal, as a person types it
  deadline: string;
  counterparty_name: string;
  counterparty_email: string;
  label: string;
  invoice_number: string;
  description: string;
};

// action amend: only the fields that differ from the current values are sent.
export function AmendForm({ current, currency, counterpartyRole }: { current: AmendValues; currency: string; counterpartyRole: "debtor" | "creditor" }) {
  const { run, pending, feedback, setFeedback } = useObligationMutation();
  const [v, setV] = useState(current);
  const [errors, setErrors] = useState<Errors>({});
  const set = (k: keyof AmendValues) => (e: React.ChangeEvent<HTMLInputElement>) => setV({ ...v, [k]: e.target.value });
  const input = (k: keyof AmendValues, label: string, type = "text") => (
    <div>
      <Label htmlFor={`amend-${k}`}>{label}</Label>
      <input id={`amend-${k}`} type={type} value={v[k]} onChange={set(k)} className={field.input} {...errorAttrs(`amend-${k}-error`, errors[k])} />
      <FieldError id={`amend-${k}-error`} message={errors[k]} />
    </div>
  );
  return (
    <form
      className="space-y-3"
      aria-label="Correct the obligation"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const errs: Errors = {};
        const body: Record<string, unknown> = {};
        if (v.amount !== current.amount) {
          const a = parseDecimalToMinor(v.amount, currency);
          if (!a.ok) errs.amount = a.message;
          else body.amount_minor = a.minor;
        }
        if (v.deadline !== current.deadline) {
          if (!ZDate.safeParse(v.deadline).success) errs.deadline = "Choose a date.";
          else body.deadline = v.deadline;
        }
        if (v.counterparty_name !== current.counterparty_name || v.counterparty_email !== current.counterparty_email) {
          if (!v.counterparty_name.trim()) errs.counterparty_name = "Enter a name.";
          else body[counterpartyRole] = { name: v.counterparty_name.trim(), ...(v.counterparty_email.trim() ? { email: v.counterparty_email.trim() } : {}) };
        }
        if (v.label !== current.label) body.label = v.label.trim();
        if (v.invoice_number !== current.invoice_number || v.description !== current.description) {
          if (!v.invoice_number.trim()) errs.invoice_number = "Enter the number.";
          else body.business_context = { invoice_number: v.invoice_number.trim(), description: v.description.trim() };
        }
        setErrors(errs);
        if (Object.keys(errs).length) return setFeedback(null);
        if (Object.keys(body).length === 0) return setFeedback({ kind: "error", text: "Nothing changed: edit a field first." });
        await run("/actions", (ver) => ({ body: { action: "amend", expected_version: ver, ...body } }), "Corrected.");
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        {input("amount", `Correct amount (${currency})`)}
        {input("deadline", "Correct due date", "date")}
        {input("counterparty_name", "Correct counterparty")}
        {input("counterparty_email", "Correct counterparty's email", "email")}
        {input("invoice_number", "Correct invoice number")}
        {input("label", "Correct label")}
      </div>
      {input("description", "Correct description")}
      <button type="submit" className={btn.secondary} disabled={pending}>
        {pending ? "Saving…" : "Save corrections"}
      </button>
      <FeedbackMessage feedback={feedback} />
    </form>
  );
}

const CREDIT_KINDS = [
  ["credit_note", "Credit note"],
  ["discount", "Discount (e.g. early payment)"],
  ["bank_fee", "Bank fee deducted"],
  ["write_off", "Write-off (not collectable)"],
] as const;

// POST /obligations/{id}/credits: settle part of it without money.
export function CreditForm({ currency, outstanding }: { currency: string; outstanding: string }) {
  const { run, pending, feedback, setFeedback } = useObligationMutation();
  const [kind, setKind] = useState<string>("credit_note");
  const [amount, setAmount] = useState(outstanding);
  // the page re-read after a change: offer what is outstanding now
  useEffect(() => setAmount(outstanding), [outstanding]);
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  return (
    <form
      className="space-y-3"
      aria-label="Credit part of the obligation"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        const errs: Errors = {};
        const a = parseDecimalToMinor(amount, currency);
        if (!a.ok) errs.amount = a.message;
        if (!reason.trim()) errs.reason = "Say why, in a few words.";
        else if (reason.trim().length > 500) errs.reason = "At most 500 characters.";
        setErrors(errs);
        if (!a.ok || Object.keys(errs).length) return setFeedback(null);
        const r = await run(
          "/credits",
          (ver) => ({ body: { expected_version: ver, kind, amount_minor: a.minor, reason: reason.trim() } }),
          "Credited: the amount counts as settled.",
        );
        if (r.ok) setReason("");
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <Label htmlFor="credit-kind">Credit for</Label>
          <select id="credit-kind" value={kind} onChange={(e) => setKind(e.target.value)} className={field.input}>
            {CREDIT_KINDS.map(([k, l]) => (
              <option key={k} value={k}>
                {l}
              </option>
            ))}
          </select>
        </div>
        <div>
          <Label htmlFor="credit-amount">{`Amount to credit (${currency})`}</Label>
          <input
            id="credit-amount"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            inputMode="decimal"
            className={field.input}
            {...errorAttrs("credit-amount-error", errors.amount)}
          />
          <FieldError id="credit-amount-error" message={errors.amount} />
        </div>
      </div>
      <div>
        <Label htmlFor="credit-reason">Reason for the credit</Label>
        <input
          id="credit-reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          className={field.input}
          {...errorAttrs("credit-reason-error", errors.reason)}
        />
        <FieldError id="credit-reason-error" message={errors.reason} />
      </div>
      <button type="submit" className={btn.secondary} disabled={pending}>
        {pending ? "Crediting…" : "Credit"}
      </button>
      <FeedbackMessage feedback={feedback} />
    </form>
  );
}

// A cancellation credits the whole outstanding amount; the dialog says what that does.
export function CancelObligationButton({ outstandingText }: { outstandingText: string }) {
  const { run, feedback } = useObligationMutation();
  const [reason, setReason] = useState("");
  return (
    <div className="space-y-2">
      <ConfirmButton
        label="Cancel obligation"
        title="Cancel this obligation?"
        confirmLabel="Cancel obligation"
        body={
          <div className="space-y-3">
            <p>
              This credits the whole outstanding {outstandingText} as a cancellation. The obligation then counts as settled: it leaves what is owed, the aging
              and the expected cash, shows as Cancelled, and its external reference can be registered again. Payments already allocated stay. You can reverse
              the cancellation later.
            </p>
            <div>
              <Label htmlFor="cancel-reason">Reason for the cancellation</Label>
              <input id="cancel-reason" value={reason} onChange={(e) => setReason(e.target.value)} className={field.input} />
            </div>
          </div>
        }
        onConfirm={async () => {
          if (!reason.trim()) return "Say why it is cancelled.";
          const r = await run("/credits", (ver) => ({ body: { expected_version: ver, kind: "cancellation", reason: reason.trim() } }), "Cancelled.");
          return r.ok ? null : describeApiError(r.error);
        }}
      />
      <FeedbackMessage feedback={feedback} />
    </div>
  );
}

// Reverse an allocation or a credit: the reason is asked, the entry stays in the history.
// `expectedVersion`: the obligation's version (on an obligation page, the page's own).
export function ReverseButton({ path, what, expectedVersion }: { path: string; what: string; expectedVersion?: number }) {
  const ctx = useOptionalObligation();
  const { submit } = useMutation();
  const [reason, setReason] = useState("");
  const id = `reverse-${path.replace(/[^a-z0-9]/gi, "").slice(-12)}`;
  return (
    <ConfirmButton
      label={
        <>
          Reverse<span className="sr-only"> {what}</span>
        </>
      }
      triggerClassName={btn.secondary}
      title={`Reverse ${what}?`}
      confirmLabel="Reverse"
      body={
        <div className="space-y-3">
          <p>The entry stays in the history, marked reversed with your reason. The amounts and the obligation&apos;s status are computed again without it.</p>
          <div>
            <Label htmlFor={id}>Reason for the reversal</Label>
            <input id={id} value={reason} onChange={(e) => setReason(e.target.value)} className={field.input} />
          </div>
        </div>
      }
      onConfirm={async () => {
        if (!reason.trim()) return "Say why it is reversed.";
        const version = expectedVersion ?? ctx?.version ?? 0;
        const r = await submit<{ obligation?: { version: number } }>({ path, body: { expected_version: version, reason: reason.trim() } });
        if (!r.ok) return describeApiError(r.error);
        if (ctx && r.data.obligation) ctx.setVersion(r.data.obligation.version);
        setReason("");
        return null;
      }}
    />
  );
}
