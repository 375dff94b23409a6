import { isCancelled, money, TYPE_LABELS } from "@/lib/dashboard/format";
import { formatRf } from "@/lib/payment-references/rf";
import { PageHeader } from "@/components/ui/page-header";
import { Pill, StatusBadge } from "@/components/ui/status-badge";
import type { ObligationDetail } from "@/components/obligations/detail/types";

// Who, what and where it stands: the title line, the badges and the five amounts.
export function ObligationHeader({
  o,
  locale,
  counterpartyName,
  overdueDays,
}: {
  o: ObligationDetail;
  locale: string;
  counterpartyName: string;
  overdueDays: number;
}) {
  const m = (minor: string) => money(minor, o.currency, locale);
  const outstanding = (BigInt(o.amount_minor) - BigInt(o.allocated_minor)).toString();
  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/obligations", label: "Obligations" }}
        title={counterpartyName || o.reference}
        description={
          <>
            {o.reference} · {TYPE_LABELS[o.obligation_type]} {o.business_context.invoice_number} · {o.organization_role === "creditor" ? "owes you" : "you owe"}
            {o.label ? ` · ${o.label}` : ""}
            {o.payment_reference ? (
              <>
                {" "}
                · payment reference <span className="whitespace-nowrap font-mono">{formatRf(o.payment_reference)}</span>
              </>
            ) : null}
          </>
        }
        actions={
          <div className="flex flex-wrap items-center gap-2">
            {isCancelled(o) ? <Pill tone="slate">Cancelled</Pill> : <StatusBadge status={o.status} />}
            {overdueDays > 0 && <Pill tone="rose">{overdueDays === 1 ? "1 day overdue" : `${overdueDays} days overdue`}</Pill>}
            {o.acknowledged && <Pill tone="emerald">Acknowledged</Pill>}
            {o.dispute?.status === "open" && (
              <a href="#dispute-promise" className="rounded-full">
                <Pill tone="rose">Disputed</Pill>
              </a>
            )}
            {o.promise?.status === "open" && <Pill tone="sky">Payment promised</Pill>}
          </div>
        }
      />

      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {[
          ["Amount", m(o.amount_minor), ""],
          [
            "Allocated",
            m(o.allocated_minor),
            o.settled.by_credits_minor === "0" ? "from recorded payments" : `${m(o.settled.by_credits_minor)} of it by credits`,
          ],
          ["Outstanding", m(outstanding), ""],
          ["Payable now", m(o.payable_minor), "activated by the terms"],
          ["Due now", m(o.due_minor), "payable and past its due date"],
        ].map(([label, value, help]) => (
          <div key={label} className="rounded-xl border border-slate-200 bg-white p-3">
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
            <dd className="mt-1 break-words text-lg font-semibold tabular-nums">{value}</dd>
            {help && <dd className="text-xs text-slate-600">{help}</dd>}
          </div>
        ))}
      </dl>
    </>
  );
}
