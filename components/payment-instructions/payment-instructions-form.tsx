"use client";

import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { z } from "zod";
import { ZPaymentInstructionsInput, type TPaymentInstructions, type TPaymentInstructionsInput } from "@/lib/schemas/payment-instructions";
import { Label, FieldError, errorAttrs } from "@/components/ui/field";
import { FeedbackMessage } from "@/components/ui/feedback";
import { useMutation } from "@/components/ui/use-mutation";
import { btn, field } from "@/components/ui/styles";

const FIELDS = [
  { name: "account_holder", label: "Account holder", hint: "The name the account is held in, as your bank knows it.", required: true },
  { name: "iban", label: "IBAN", hint: "Spaces are fine. Needed for the QR code payers of EUR can scan.", mono: true },
  { name: "bic", label: "BIC (SWIFT)", hint: "8 or 11 characters.", mono: true },
  { name: "account_number", label: "Account number", hint: "Where IBANs are not used (e.g. USD, CAD, AUD, JPY).", mono: true },
  { name: "routing_number", label: "Routing number", hint: "ABA routing, transit or BSB number.", mono: true },
  { name: "sort_code", label: "Sort code", hint: "UK, e.g. 12-34-56.", mono: true },
  { name: "bank_name", label: "Bank name" },
  { name: "note", label: "Note to payers", hint: "Shown as written on the payment page.", textarea: true },
] as const;
type FieldName = (typeof FIELDS)[number]["name"];
type Values = Record<FieldName, string>;

// The API's schema, with empty inputs meaning "not given".
const ZForm = z.preprocess((v) => Object.fromEntries(Object.entries(v as Values).filter(([, s]) => s.trim() !== "")), ZPaymentInstructionsInput);

// PUT /payment-instructions/{currency} with the API's schema: replaces the currency's record.
export function PaymentInstructionsForm({ currency, current }: { currency: string; current: TPaymentInstructions | null }) {
  const { submit, feedback } = useMutation();
  const defaults = Object.fromEntries(FIELDS.map((f) => [f.name, (current?.[f.name] as string | null) ?? ""])) as Values;
  const { register, handleSubmit, formState } = useForm<Values, unknown, TPaymentInstructionsInput>({
    resolver: zodResolver(ZForm as unknown as z.ZodType<TPaymentInstructionsInput, Values>),
    defaultValues: defaults,
  });
  return (
    <form
      noValidate
      aria-label={`Payment instructions for ${currency}`}
      className="space-y-4"
      onSubmit={handleSubmit(async (body) => {
        await submit<TPaymentInstructions>({
          method: "PUT",
          path: `/payment-instructions/${currency}`,
          body,
          success: `Saved. Payers of ${currency} invoices now see these details.`,
        });
      })}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        {FIELDS.map((f) => {
          const id = `pi-${f.name}`;
          const err = formState.errors[f.name]?.message;
          const hintId = "hint" in f ? `${id}-hint` : undefined;
          const attrs = errorAttrs(`${id}-error`, err);
          const describedBy = [hintId, attrs["aria-describedby"]].filter(Boolean).join(" ") || undefined;
          const common = { id, ...register(f.name), "aria-invalid": attrs["aria-invalid"], "aria-describedby": describedBy };
          return (
            <div key={f.name} className={"textarea" in f ? "sm:col-span-2" : ""}>
              <Label htmlFor={id}>
                {f.label} {"required" in f ? null : <span className="font-normal text-slate-600">(optional)</span>}
              </Label>
              {"textarea" in f ? (
                <textarea rows={2} className={field.input} {...common} />
              ) : (
                <input type="text" autoComplete="off" spellCheck={false} className={`${field.input} ${"mono" in f ? "font-mono" : ""}`} {...common} />
              )}
              {hintId && (
                <p id={hintId} className={field.hint}>
                  {"hint" in f ? f.hint : null}
                </p>
              )}
              <FieldError id={`${id}-error`} message={err} />
            </div>
          );
        })}
      </div>
      <FeedbackMessage feedback={feedback} />
      <button type="submit" className={btn.primary} disabled={formState.isSubmitting}>
        Save {currency} instructions
      </button>
    </form>
  );
}

// DELETE /payment-instructions/{currency}
export function DeletePaymentInstructionsButton({ currency }: { currency: string }) {
  const { submit, pending, feedback } = useMutation();
  return (
    <span className="inline-flex flex-col items-end">
      <button type="button" className={btn.danger} disabled={pending} onClick={() => submit({ method: "DELETE", path: `/payment-instructions/${currency}` })}>
        Remove {currency}
      </button>
      <FeedbackMessage feedback={feedback} className="mt-1" />
    </span>
  );
}
