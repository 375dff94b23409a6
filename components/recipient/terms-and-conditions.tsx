import { formatDate } from "@/lib/format/dates";
import { formatMinor } from "@/lib/money/format";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { CONDITION_WORDS, termState } from "@/components/recipient/present";
import { Badge, Card } from "@/components/recipient/ui";

type Locale = readonly string[] | undefined;

// The payment terms (instalments) with when each is payable, and the conditions they wait for.
export function PaymentTerms({ inv, locale }: { inv: TRecipientInvoice; locale: Locale }) {
  if (inv.payment_terms.length === 0) return null;
  return (
    <Card id="terms" title="Payment terms" description="The amount is paid in parts. Each part becomes payable on its date or when its condition is met.">
      <ol className="divide-y divide-slate-200">
        {inv.payment_terms.map((t) => {
          const s = termState(t, inv);
          return (
            <li key={t.id} className="py-3">
              <div className="flex items-baseline justify-between gap-3">
                <p className="min-w-0 break-words font-medium">{t.label || `Part ${t.sequence}`}</p>
                <p className="max-w-[60%] break-all text-right font-semibold tabular-nums">{formatMinor(t.amount_minor ?? "0", inv.currency, { locale })}</p>
              </div>
              <div className="mt-1 flex flex-wrap items-center justify-between gap-2">
                <p className="min-w-0 break-words text-sm text-slate-700">
                  {s.dateKey ? <>Payable {s.state.text === "Due now" ? "since" : "on"} {formatDate(s.dateKey, locale)}</> : <>Payable {s.when}</>}
                </p>
                <Badge tone={s.state.tone}>{s.state.text}</Badge>
              </div>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}

export function Conditions({ inv, locale }: { inv: TRecipientInvoice; locale: Locale }) {
  if (inv.conditions.length === 0 && !inv.condition_summary) return null;
  return (
    <Card id="conditions" title="Conditions" description="Parts of the payment that depend on something happening first.">
      {inv.condition_summary && <p className="mb-3 break-words text-sm text-slate-800">{inv.condition_summary}</p>}
      <ul className="divide-y divide-slate-200">
        {inv.conditions.map((c) => {
          const w = CONDITION_WORDS[c.status] ?? CONDITION_WORDS.waiting;
          return (
            <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <span className="min-w-0 break-words">{c.label}</span>
              <span className="flex items-center gap-2 text-sm text-slate-700">
                {c.satisfied_on && <span>{formatDate(c.satisfied_on, locale)}</span>}
                <Badge tone={w.tone}>{w.text}</Badge>
              </span>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
