import Link from "next/link";
import type { listCounterpartyDisputes } from "@/lib/counterparties/list-counterparty-disputes";
import { formatDay, formatTimestamp, money } from "@/lib/dashboard/format";
import { Pill } from "@/components/ui/status-badge";
import { link } from "@/components/ui/styles";
import { DISPUTE_REASON_LABELS, DISPUTE_TONE, PROMISE_TONE } from "@/components/obligations/detail/dispute-promise-section";

type Item = Awaited<ReturnType<typeof listCounterpartyDisputes>>[number];

const DISPUTE_WORDS = { open: "Open", accepted: "Accepted", rejected: "Rejected" } as const;
const PROMISE_WORDS = { open: "Open", kept: "Kept", broken: "Broken" } as const;

// The counterparty's disputes and promises to pay, one entry per obligation, with the words
// and colours of the obligation page's "Dispute and promise" section; resolving is done there.
export function CounterpartyDisputes({ items, locale }: { items: Item[]; locale: string }) {
  return (
    <ul className="divide-y divide-slate-100" aria-label="Disputes and promises">
      {items.map((o) => (
        <li key={o.id} className="space-y-2 py-3" data-testid="counterparty-dispute-promise">
          <Link href={`/dashboard/obligations/${o.id}#dispute-promise`} className={`${link} break-words font-medium`}>
            {o.invoice_number || o.reference}
          </Link>
          {o.dispute && (
            <div data-testid="dispute" className="text-sm">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-medium">Dispute</span>
                <Pill tone={DISPUTE_TONE[o.dispute.status]}>{DISPUTE_WORDS[o.dispute.status]}</Pill>
                <span>{DISPUTE_REASON_LABELS[o.dispute.reason] ?? o.dispute.reason}</span>
                {o.dispute.amount_minor && <span className="tabular-nums">({money(o.dispute.amount_minor, o.currency, locale)} disputed)</span>}
              </p>
              <p className="mt-1 line-clamp-3 whitespace-pre-wrap break-words text-slate-700">{o.dispute.message}</p>
              <p className="text-slate-600">
                Opened <time dateTime={o.dispute.opened_at}>{formatTimestamp(o.dispute.opened_at, locale)}</time>
                {o.dispute.resolved_at && (
                  <>
                    , resolved <time dateTime={o.dispute.resolved_at}>{formatTimestamp(o.dispute.resolved_at, locale)}</time>
                  </>
                )}
              </p>
            </div>
          )}
          {o.promise && (
            <p data-testid="promise" className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-medium">Promise to pay</span>
              <Pill tone={PROMISE_TONE[o.promise.status]}>{PROMISE_WORDS[o.promise.status]}</Pill>
              <span className="tabular-nums">
                {money(o.promise.amount_minor, o.currency, locale)} by {formatDay(o.promise.date, locale)}
              </span>
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
