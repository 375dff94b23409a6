import Link from "next/link";
import type { Suggestion } from "@/lib/reconciliation/engine";
import { money } from "@/lib/dashboard/format";
import { Pill } from "@/components/ui/status-badge";
import { link } from "@/components/ui/styles";

const TONE = { exact: "emerald", high: "sky", medium: "amber", low: "slate" } as const;
const LABEL = { exact: "Exact match", high: "High confidence", medium: "Medium confidence", low: "Low confidence" } as const;

export function ConfidencePill({ s }: { s: Suggestion }) {
  return <Pill tone={TONE[s.confidence]}>{`${LABEL[s.confidence]} · ${Math.round(s.score * 100)} %`}</Pill>;
}

// What a suggestion would allocate, in one line a clerk reads ("€250.00 to INV-1, €100.00 to INV-2").
export function allocationWords(s: Suggestion, currency: string, locale: string): string {
  return s.allocations.map((a) => `${money(a.amount_minor, currency, locale)} to ${a.invoice_number || a.obligation_reference}`).join(", ");
}

// A suggestion with its allocations and its evidence in words: the signals that matched, and
// (folded) those that did not, so a person sees what was compared.
export function SuggestionView({ s, currency, locale }: { s: Suggestion; currency: string; locale: string }) {
  const matched = s.evidence.filter((e) => e.matched);
  const unmatched = s.evidence.filter((e) => !e.matched);
  return (
    <div className="space-y-2 text-sm">
      <p className="flex flex-wrap items-center gap-2">
        <ConfidencePill s={s} />
        <span className="min-w-0 break-words">
          {s.allocations.map((a, i) => (
            <span key={a.obligation_id}>
              {i > 0 ? ", " : ""}
              {money(a.amount_minor, currency, locale)} to{" "}
              <Link href={`/dashboard/obligations/${a.obligation_id}`} className={`${link} font-medium underline`}>
                {a.invoice_number || a.obligation_reference}
              </Link>
              {a.amount_minor !== a.outstanding_minor ? ` (of ${money(a.outstanding_minor, currency, locale)} outstanding)` : ""}
            </span>
          ))}
        </span>
      </p>
      <ul className="list-disc space-y-0.5 pl-5 text-slate-700" aria-label="Evidence">
        {matched.map((e) => (
          <li key={e.signal} className="break-words">
            {e.detail}
          </li>
        ))}
      </ul>
      {unmatched.length > 0 && (
        <details className="text-slate-600">
          <summary className="cursor-pointer">Also compared ({unmatched.length})</summary>
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            {unmatched.map((e) => (
              <li key={e.signal} className="break-words">
                {e.detail}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
