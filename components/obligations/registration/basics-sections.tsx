"use client";

import { CURRENCIES } from "@/lib/schemas/common";
import { OBLIGATION_TYPES } from "@/lib/schemas/obligations";
import { TYPE_LABELS } from "@/lib/dashboard/format";
import { minorDigits } from "@/lib/money/format";
import { Label, FieldError, errorAttrs } from "@/components/ui/field";
import { field } from "@/components/ui/styles";
import { FormSection, type RegistrationForm, SelectField, TextField } from "@/components/obligations/registration/fields";

// What it is: the type and the direction.
export function KindSection({ form }: { form: RegistrationForm }) {
  return (
    <FormSection id="sec-what-it-is" title="What it is">
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField form={form} label="Type" name="obligation_type" required options={OBLIGATION_TYPES.map((t) => [t, TYPE_LABELS[t]] as const)} />
        <fieldset>
          <legend className={field.label}>Direction</legend>
          <div className="mt-1 grid gap-2">
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" value="creditor" {...form.register("organization_role")} className="size-4" /> You are owed (you are the creditor)
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input type="radio" value="debtor" {...form.register("organization_role")} className="size-4" /> You owe (you are the debtor)
            </label>
          </div>
        </fieldset>
      </div>
    </FormSection>
  );
}

// The other party: named after the direction.
export function CounterpartySection({ form, role }: { form: RegistrationForm; role: "creditor" | "debtor" }) {
  const other = role === "creditor" ? "Debtor" : "Creditor";
  return (
    <FormSection id="sec-counterparty" title={role === "creditor" ? "Debtor (who owes you)" : "Creditor (whom you owe)"}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField form={form} label={`${other} name`} name="counterparty_name" required autoComplete="organization" />
        <TextField
          form={form}
          label={`${other} email`}
          name="counterparty_email"
          type="email"
          autoComplete="email"
          hint="Used as the “To” of the delivery draft; nothing is sent by the service."
        />
      </div>
    </FormSection>
  );
}

// The amount (with its value spelled out in the currency) and the deadline.
export function AmountSection({ form, currency, amountPreview }: { form: RegistrationForm; currency: string; amountPreview: string }) {
  const hint = amountPreview
    ? `= ${amountPreview}`
    : minorDigits(currency) === 0
      ? `${currency} has no decimal places, e.g. 150000`
      : "Use a dot for decimals, e.g. 1250.50";
  return (
    <FormSection id="sec-amount-and-deadline" title="Amount and deadline">
      <div className="grid gap-4 sm:grid-cols-[1fr_8rem_1fr]">
        <TextField form={form} label="Amount" name="amount" required inputMode="decimal" hint={hint} />
        <SelectField form={form} label="Currency" name="currency" required options={CURRENCIES.map((c) => [c, c] as const)} />
        <TextField form={form} label="Deadline" name="deadline" type="date" required />
      </div>
    </FormSection>
  );
}

// The invoice number, a label for the team, a description, and the reference elsewhere.
export function ReferenceSection({ form }: { form: RegistrationForm }) {
  const error = form.formState.errors.description?.message;
  return (
    <FormSection id="sec-reference-and-description" title="Reference and description">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField form={form} label="Invoice or document number" name="invoice_number" required />
        <TextField form={form} label="Label" name="label" hint="A short name for your team, e.g. “Q4 retainer”." />
      </div>
      <div>
        <Label htmlFor="f-description">Description</Label>
        <textarea id="f-description" rows={3} {...form.register("description")} {...errorAttrs("f-description-error", error)} className={field.input} />
        <FieldError id="f-description-error" message={error} />
      </div>
      <details className="rounded-md border border-slate-200 p-3">
        <summary className="cursor-pointer text-sm font-medium text-slate-800">Reference in another system (optional)</summary>
        <p className="mt-2 text-sm text-slate-600">
          Where this obligation lives elsewhere, e.g. your accounting system. Defaults to “dashboard” and the invoice number.
        </p>
        <div className="mt-3 grid gap-4 sm:grid-cols-2">
          <TextField form={form} label="System (namespace)" name="external_namespace" placeholder="dashboard" />
          <TextField form={form} label="Id in that system" name="external_id" />
        </div>
      </details>
    </FormSection>
  );
}
