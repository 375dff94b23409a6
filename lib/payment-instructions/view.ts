import type { TPaymentInstructions } from "@/lib/schemas/payment-instructions";
import type { IssuerPrincipal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";

export type PaymentInstructionRow = {
  currency: string;
  accountHolder: string;
  iban: string | null;
  bic: string | null;
  accountNumber: string | null;
  routingNumber: string | null;
  sortCode: string | null;
  bankName: string | null;
  note: string | null;
  updatedAt: Date;
};

export function toPaymentInstructions(r: PaymentInstructionRow): TPaymentInstructions {
  return {
    currency: r.currency as TPaymentInstructions["currency"],
    account_holder: r.accountHolder,
    iban: r.iban,
    bic: r.bic,
    account_number: r.accountNumber,
    routing_number: r.routingNumber,
    sort_code: r.sortCode,
    bank_name: r.bankName,
    note: r.note,
    updated_at: r.updatedAt.toISOString(),
  };
}

// Where the money goes is an organization setting, not an integration's business: only an
// owner's or admin's signed-in session may read or change it. An API key is refused whatever
// its scopes (a leaked key must not be able to redirect payments).
export function requireAdminSession(p: IssuerPrincipal): void {
  if (p.kind === "api_key") throw new AppError("insufficient_scope", "payment instructions need a signed-in owner or admin, not an API key");
  if (p.role !== "owner" && p.role !== "admin") throw new AppError("insufficient_permission", `the ${p.role} role cannot manage payment instructions`);
}
