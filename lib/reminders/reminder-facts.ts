import { isRecipientLanguage, type RecipientLanguage } from "@/lib/i18n/recipient";
import type { LoadedObligation } from "@/lib/obligations/load";
import { compute } from "@/lib/obligations/evaluate";
import { lateInterestMinor } from "@/lib/reminders/interest";
import type { ReminderFacts } from "@/lib/reminders/render";
import type { PolicyRow } from "@/lib/reminders/view";
import type { ReminderTone } from "@/lib/schemas/reminders";

export type BankRow = NonNullable<ReminderFacts["bank"]> & { organizationId: string; currency: string };

// The due date of what is due: the payable date of the first payment term (in sequence)
// not yet covered by what was allocated; without payment terms, the deadline. null while
// that term's payable date is not known yet (a condition it waits for).
export function reminderDueDate(o: LoadedObligation, today: string): string | null {
  const terms = compute(o, today).paymentTerms;
  if (terms.length === 0) return o.deadline.toISOString().slice(0, 10);
  let covered = 0n;
  for (const t of terms) {
    covered += BigInt(t.amount_minor ?? "0");
    if (covered > o.allocatedMinor) return t.payable_on ?? null;
  }
  return null;
}

// The payer's language: the one last used on the hosted page, else the organization's
// (there is no organization language setting yet: English).
export const reminderLanguage = (o: LoadedObligation): RecipientLanguage => {
  const l = o.paymentRequest?.payerLanguage;
  return isRecipientLanguage(l) ? l : "en";
};

export type ReminderFactsInput = {
  o: LoadedObligation;
  today: string;
  dueDate: string;
  tone: ReminderTone;
  language: RecipientLanguage;
  policy: PolicyRow;
  bank: BankRow | null;
  hostedUrl: string | null;
};

// What a reminder says, from the obligation as it is today (amounts in bigint minor units).
export function reminderFacts(input: ReminderFactsInput): ReminderFacts {
  const { o, today, dueDate, policy } = input;
  const outstanding = o.amountMinor - o.allocatedMinor;
  let interest: ReminderFacts["interest"] = null;
  if (policy.interestEnabled && policy.referenceRateBasisPoints !== null && policy.marginBasisPoints !== null && dueDate < today) {
    // Overdue: what fell due before today and is not paid (never more than outstanding).
    const terms = compute(o, today).paymentTerms;
    const fellDue =
      terms.length === 0
        ? o.deadline.toISOString().slice(0, 10) < today
          ? o.amountMinor
          : 0n
        : terms.reduce((s, t) => (t.payable_on && t.payable_on < today ? s + BigInt(t.amount_minor ?? "0") : s), 0n);
    const dueBefore = fellDue - o.allocatedMinor;
    const overdue = dueBefore < 0n ? 0n : dueBefore > outstanding ? outstanding : dueBefore;
    const days = Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${dueDate}T00:00:00Z`)) / 86_400_000);
    const rate = policy.referenceRateBasisPoints + policy.marginBasisPoints;
    interest = {
      rateBasisPoints: rate,
      overdueMinor: overdue,
      interestMinor: lateInterestMinor(overdue, rate, days),
      compensationMinor: policy.fixedCompensationMinor,
    };
  }
  return {
    language: input.language,
    tone: input.tone,
    today,
    dueDate,
    debtorName: o.debtorName,
    issuerName: o.creditorName || o.organizationName,
    senderName: policy.senderName || o.creditorName || o.organizationName,
    invoice: o.invoiceNumber || o.reference,
    currency: o.currency,
    outstandingMinor: outstanding,
    paymentReference: o.paymentReference,
    bank: input.bank,
    interest,
    hostedUrl: input.hostedUrl,
  };
}
