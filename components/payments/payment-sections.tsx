import Link from "next/link";
import { formatTimestamp, money } from "@/lib/dashboard/format";
import type { TPayment } from "@/lib/schemas/payments";
import { Figures } from "@/components/ui/figures";
import { Empty, Section } from "@/components/ui/section";
import { link } from "@/components/ui/styles";
import { ReverseButton } from "@/components/obligations/lifecycle-actions";

// A payment's key figures, on its own page and on its reconciliation page.
export function PaymentFigures({ payment: p, locale }: { payment: TPayment; locale: string }) {
  const m = (minor: string) => money(minor, p.currency, locale);
  return (
    <Figures
      items={[
        ["Amount", m(p.amount_minor)],
        ["Allocated", m(p.allocated_minor)],
        ["Left to allocate", p.status === "dismissed" ? "Set aside" : m(p.unallocated_minor)],
      ]}
    />
  );
}

// Where a payment went so far: each allocation's obligation and amount (and, on the
// payment's own page, when it was made).
// `versions` (obligation id -> version): each live allocation gets its Reverse button.
export function AllocationsSection({
  payment: p,
  locale,
  showTimes = false,
  versions,
}: {
  payment: TPayment;
  locale: string;
  showTimes?: boolean;
  versions?: Record<string, number>;
}) {
  const m = (minor: string) => money(minor, p.currency, locale);
  return (
    <Section title="Allocations" id="allocations">
      {p.allocations.length === 0 ? (
        <Empty>Not allocated yet.</Empty>
      ) : (
        <ul className="divide-y divide-slate-100">
          {p.allocations.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
              <div>
                <Link href={`/dashboard/obligations/${a.obligation_id}`} className={`${link} font-medium`}>
                  {a.obligation_reference}
                </Link>
                {showTimes && (
                  <p className="text-xs text-slate-600">
                    <time dateTime={a.created_at}>{formatTimestamp(a.created_at, locale)}</time>
                  </p>
                )}
              </div>
              {a.reversed_at ? (
                <span className="text-sm text-slate-600">
                  <s className="tabular-nums">{m(a.amount_minor)}</s> reversed: {a.reversal_reason}
                </span>
              ) : (
                <div className="flex flex-wrap items-center gap-3">
                  <span className="font-medium tabular-nums">{m(a.amount_minor)}</span>
                  {versions?.[a.obligation_id] !== undefined && (
                    <ReverseButton
                      path={`/payments/${p.id}/allocations/${a.id}/reverse`}
                      what={`the allocation of ${m(a.amount_minor)} to ${a.obligation_reference}`}
                      expectedVersion={versions[a.obligation_id]}
                    />
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
