"use client";

import { formatDate } from "@/lib/format/dates";
import { formatMinor } from "@/lib/money/format";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { CONDITION_TONES, termState, todayUtc } from "@/components/recipient/present";
import { useI18n } from "@/components/recipient/i18n";
import { Badge, Card } from "@/components/recipient/ui";

// The payment terms (instalments) with when each is payable, and the conditions they wait for.
export function PaymentTerms({ inv }: { inv: TRecipientInvoice }) {
  const { t, locale } = useI18n();
  if (inv.payment_terms.length === 0) return null;
  return (
    <Card id="terms" title={t("terms.title")} description={t("terms.description")}>
      <ol className="divide-y divide-slate-200">
        {inv.payment_terms.map((term) => {
          const s = termState(term, inv, t);
          const condition = term.condition_id ? inv.conditions.find((c) => c.id === term.condition_id) : undefined;
          const when = term.payable_on
            ? t(term.payable_on <= todayUtc() ? "terms.payableSince" : "terms.payableOn", { date: formatDate(term.payable_on, locale) })
            : condition
              ? t("terms.payableAfter", { label: condition.label })
              : t("terms.payableTbd");
          return (
            <li key={term.id} className="py-3">
              <div className="flex items-baseline justify-between gap-3">
                <p className="min-w-0 break-words font-medium">{term.label || t("terms.part", { n: term.sequence })}</p>
                <p className="max-w-[60%] break-all text-right font-semibold tabular-nums">{formatMinor(term.amount_minor ?? "0", inv.currency, { locale })}</p>
              </div>
              <div className="mt-1 flex flex-wrap items-center justify-between gap-2">
                <p className="min-w-0 break-words text-sm text-slate-700">{when}</p>
                <Badge tone={s.state.tone}>{s.state.text}</Badge>
              </div>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}

export function Conditions({ inv }: { inv: TRecipientInvoice }) {
  const { t, locale } = useI18n();
  if (inv.conditions.length === 0 && !inv.condition_summary) return null;
  return (
    <Card id="conditions" title={t("conditions.title")} description={t("conditions.description")}>
      {inv.condition_summary && <p className="mb-3 break-words text-sm text-slate-800">{inv.condition_summary}</p>}
      <ul className="divide-y divide-slate-200">
        {inv.conditions.map((c) => {
          const status = c.status in CONDITION_TONES ? (c.status as "waiting" | "satisfied" | "waived") : "waiting";
          return (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <span className="min-w-0 break-words">{c.label}</span>
              <span className="flex items-center gap-2 text-sm text-slate-700">
                {c.satisfied_on && <span>{formatDate(c.satisfied_on, locale)}</span>}
                <Badge tone={CONDITION_TONES[status]}>{t(`condition.${status}`)}</Badge>
              </span>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
