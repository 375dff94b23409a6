import Link from "next/link";
import { formatDay, money } from "@/lib/dashboard/format";
import type { listObligationAllocations } from "@/lib/payments/list-obligation-allocations";
import { Empty, Section } from "@/components/ui/section";
import type { ObligationDetail } from "@/components/obligations/detail/types";
import { link } from "@/components/ui/styles";
import { ReverseButton } from "@/components/obligations/lifecycle-actions";

type Allocation = Awaited<ReturnType<typeof listObligationAllocations>>[number];

// The recorded payments accepted as evidence for this obligation.
export function AllocationsSection({
  o,
  locale,
  allocations,
  canRecord,
}: {
  o: ObligationDetail;
  locale: string;
  allocations: Allocation[];
  canRecord: boolean;
}) {
  const m = (minor: string) => money(minor, o.currency, locale);
  return (
    <Section title="Payments allocated" id="allocations" description="Recorded payments accepted as evidence for this obligation">
      {allocations.length === 0 ? (
        <Empty>
          No payment allocated yet.
          {canRecord && (
            <>
              {" "}
              <Link href="/dashboard/payments" className="text-brand-700 underline">
                Record or allocate a payment
              </Link>
            </>
          )}
        </Empty>
      ) : (
        <ul className="divide-y divide-slate-100">
          {allocations.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
              <div className="min-w-0">
                <Link href={`/dashboard/payments/${a.payment_id}`} className={`${link} font-medium`}>
                  {a.payment.payer_name || a.payment.reference || "Payment"}
                </Link>
                <p className="text-sm text-slate-600">
                  received {formatDay(a.payment.received_on, locale)}
                  {a.payment.reference ? ` · ${a.payment.reference}` : ""} · payment of {money(a.payment.amount_minor, a.payment.currency, locale)}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-3">
                {a.reversed_at ? (
                  <span className="text-sm text-slate-600">
                    <s className="tabular-nums">{m(a.amount_minor)}</s> reversed {formatDay(a.reversed_at.slice(0, 10), locale)}: {a.reversal_reason}
                  </span>
                ) : (
                  <>
                    <span className="font-medium tabular-nums">{m(a.amount_minor)}</span>
                    {canRecord && (
                      <ReverseButton path={`/payments/${a.payment_id}/allocations/${a.id}/reverse`} what={`the allocation of ${m(a.amount_minor)}`} />
                    )}
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
