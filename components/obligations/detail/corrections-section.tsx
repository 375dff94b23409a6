import { CREDIT_LABELS, formatDay, money } from "@/lib/dashboard/format";
import { minorToDecimal } from "@/lib/money/format";
import { Section } from "@/components/ui/section";
import type { ObligationDetail } from "@/components/obligations/detail/types";
import { AmendForm, CancelObligationButton, CreditForm, ReverseButton } from "@/components/obligations/lifecycle-actions";

// What settled the obligation besides payments (its credits, each reversible), and the
// corrections: amend while nothing is settled, a credit, a cancellation (docs/obligations.md
// "Lifecycle").
export function CorrectionsSection({ o, locale, canWrite }: { o: ObligationDetail; locale: string; canWrite: boolean }) {
  const m = (minor: string) => money(minor, o.currency, locale);
  const outstanding = BigInt(o.amount_minor) - BigInt(o.allocated_minor);
  const cp = o.organization_role === "creditor" ? o.debtor : o.creditor;
  return (
    <Section title="Credits and corrections" id="corrections" description="Settle without money, cancel, or correct a mistake">
      <div className="space-y-5">
        <p className="text-sm text-slate-700">
          Settled {m(o.allocated_minor)}: {m(o.settled.by_payments_minor)} by payments, {m(o.settled.by_credits_minor)} by credits.
        </p>
        {o.credits.length > 0 && (
          <ul className="divide-y divide-slate-100" aria-label="Credits">
            {o.credits.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
                <div className="min-w-0">
                  <p className="font-medium">{CREDIT_LABELS[c.kind] ?? c.kind}</p>
                  <p className="break-words text-sm text-slate-600">
                    {formatDay(c.created_at.slice(0, 10), locale)} · {c.reason}
                    {c.reversed_at ? ` · reversed ${formatDay(c.reversed_at.slice(0, 10), locale)}: ${c.reversal_reason}` : ""}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-3">
                  {c.reversed_at ? (
                    <s className="tabular-nums text-slate-600">{m(c.amount_minor)}</s>
                  ) : (
                    <span className="font-medium tabular-nums">{m(c.amount_minor)}</span>
                  )}
                  {canWrite && !c.reversed_at && (
                    <ReverseButton
                      path={`/obligations/${o.id}/credits/${c.id}/reverse`}
                      what={`the ${(CREDIT_LABELS[c.kind] ?? c.kind).toLowerCase()} of ${m(c.amount_minor)}`}
                    />
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
        {canWrite && outstanding > 0n && (
          <>
            <div>
              <h3 className="mb-2 font-medium">Credit part of it</h3>
              <CreditForm currency={o.currency} outstanding={minorToDecimal(outstanding, o.currency)} />
            </div>
            <div>
              <h3 className="mb-2 font-medium">Cancel</h3>
              <p className="mb-2 text-sm text-slate-600">For an obligation that is not owed at all, e.g. registered twice.</p>
              <CancelObligationButton outstandingText={m(outstanding.toString())} />
            </div>
          </>
        )}
        {canWrite && o.allocated_minor === "0" && (
          <details>
            <summary className="cursor-pointer font-medium">Correct the obligation</summary>
            <div className="mt-3">
              <AmendForm
                currency={o.currency}
                counterpartyRole={o.organization_role === "creditor" ? "debtor" : "creditor"}
                current={{
                  amount: minorToDecimal(o.amount_minor, o.currency),
                  deadline: o.deadline,
                  counterparty_name: cp.name,
                  counterparty_email: cp.email ?? "",
                  label: o.label,
                  invoice_number: o.business_context.invoice_number,
                  description: o.business_context.description ?? "",
                }}
              />
            </div>
          </details>
        )}
        {canWrite && o.allocated_minor !== "0" && (
          <p className="text-sm text-slate-600">To correct the amount, dates or parties, first reverse what settled it (payments and credits).</p>
        )}
      </div>
    </Section>
  );
}
