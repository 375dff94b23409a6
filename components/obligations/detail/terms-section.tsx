import { DUE_RULE_LABELS, formatDay, money, TRIGGER_LABELS } from "@/lib/dashboard/format";
import { basisPointsToPercent } from "@/lib/money/format";
import { Section } from "@/components/ui/section";
import { Pill } from "@/components/ui/status-badge";
import type { ObligationDetail } from "@/components/obligations/detail/types";

// Each payment term: what activates it, when it is due, and whether it is payable today.
export function TermsSection({ o, locale, today }: { o: ObligationDetail; locale: string; today: string }) {
  const conditionLabel = new Map(o.conditions.map((c) => [c.id, c.label]));
  const n = o.payment_terms.length;
  return (
    <Section
      title="Payment terms"
      id="terms"
      description={n ? `${n} ${n === 1 ? "term" : "terms"}` : `No terms: the whole amount is due on ${formatDay(o.deadline, locale)}.`}
    >
      {n > 0 && (
        <ul className="divide-y divide-slate-100">
          {o.payment_terms.map((t) => {
            const payable = !!t.triggered_on && t.triggered_on <= today;
            const due = payable && !!t.payable_on && t.payable_on <= today;
            return (
              <li key={t.id} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 py-2.5">
                <div className="min-w-0">
                  <p className="font-medium">
                    {t.sequence}. {t.label || (t.amount_type === "percentage" ? `${basisPointsToPercent(t.percentage_basis_points ?? 0)} %` : "Fixed amount")}
                  </p>
                  <p className="text-sm text-slate-600">
                    {t.trigger_type === "condition_satisfied"
                      ? `When “${conditionLabel.get(t.condition_id ?? "") ?? t.condition_key}” is met`
                      : t.trigger_type === "specific_date"
                        ? `From ${formatDay(t.trigger_date ?? "", locale)}`
                        : TRIGGER_LABELS[t.trigger_type]}
                    {" · due "}
                    {t.due_rule === "days_after_trigger"
                      ? `${t.due_days} days later`
                      : t.due_rule === "specific_date"
                        ? formatDay(t.due_date ?? "", locale)
                        : DUE_RULE_LABELS[t.due_rule].toLowerCase()}
                    {t.payable_on ? ` (${formatDay(t.payable_on, locale)})` : ""}
                  </p>
                </div>
                <div className="text-right">
                  <p className="font-medium tabular-nums">{money(t.amount_minor ?? "0", o.currency, locale)}</p>
                  <p>{due ? <Pill tone="rose">Due now</Pill> : payable ? <Pill tone="amber">Payable</Pill> : <Pill>Not yet payable</Pill>}</p>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Section>
  );
}
