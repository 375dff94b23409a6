import { z } from "zod";
import { ZCurrency, ZTimestamp } from "@/lib/schemas/common";
import { compactIban, ibanProblem, isValidBic } from "@/lib/payment-instructions/bank-details";

// Payment instructions: how a payer pays the organization in one currency (shown on the
// hosted page with the obligation's RF payment reference, and as an EPC QR code for EUR).

const IBAN_PROBLEMS = {
  format: "must be an IBAN: 2 letters, 2 check digits and up to 30 letters or digits",
  country: "must start with the code of a country that uses IBANs",
  length: "has the wrong length for its country",
  checksum: "has wrong check digits (mod 97): check for a typing error",
} as const;

const text = (max: number) => z.string().trim().max(max);
const optionalText = (max: number, description: string) => text(max).min(1).optional().meta({ description });

export const ZPaymentInstructionsInput = z
  .strictObject({
    account_holder: text(70).min(1).meta({ description: "The name the account is held in (at most 70 characters, the EPC QR code's limit)" }),
    iban: z
      .string()
      .max(42)
      .superRefine((v, ctx) => {
        const p = ibanProblem(v);
        if (p) ctx.addIssue({ code: "custom", message: IBAN_PROBLEMS[p] });
      })
      .transform(compactIban)
      .optional()
      .meta({ description: "IBAN; spaces and case are ignored and it is stored compact. Checked by country length and its mod-97 check digits" }),
    bic: z
      .string()
      .max(20)
      .refine(isValidBic, "must be a BIC of 8 or 11 characters (bank, country, location, optional branch)")
      .transform((s) => s.trim().toUpperCase())
      .optional()
      .meta({ description: "BIC (SWIFT code), 8 or 11 characters" }),
    account_number: optionalText(34, "Account number where IBANs are not used (e.g. USD, CAD, AUD, JPY)"),
    routing_number: optionalText(34, "Routing / transit / BSB number"),
    sort_code: optionalText(8, "UK sort code, e.g. 12-34-56"),
    bank_name: optionalText(140, "The bank's name"),
    note: optionalText(500, "Anything else the payer should know, shown as written"),
  })
  .superRefine((v, ctx) => {
    if (!v.iban && !v.account_number) ctx.addIssue({ code: "custom", path: ["iban"], message: "give an iban or an account_number" });
  })
  .meta({ title: "PaymentInstructionsInput" });
export type TPaymentInstructionsInput = z.infer<typeof ZPaymentInstructionsInput>;

const nullable = (description: string) =>
  z
    .string()
    .nullable()
    .meta({ description: `${description} (null when not given)` });

export const ZPaymentInstructions = z
  .strictObject({
    currency: ZCurrency,
    account_holder: z.string(),
    iban: nullable("IBAN, compact (no spaces)"),
    bic: nullable("BIC"),
    account_number: nullable("Account number"),
    routing_number: nullable("Routing number"),
    sort_code: nullable("Sort code"),
    bank_name: nullable("Bank name"),
    note: nullable("Note to the payer"),
    updated_at: ZTimestamp,
  })
  .meta({ title: "PaymentInstructions" });
export type TPaymentInstructions = z.infer<typeof ZPaymentInstructions>;

export const ZPaymentInstructionsList = z.strictObject({ items: z.array(ZPaymentInstructions) }).meta({ title: "PaymentInstructionsList" });

export const ZCurrencyParams = z.strictObject({ currency: ZCurrency });
