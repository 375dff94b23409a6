import { formatDate } from "@/lib/format/dates";
import { formatMinor } from "@/lib/money/format";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { amounts, statusWords } from "@/components/recipient/present";
import { Badge } from "@/components/recipient/ui";

type Locale = readonly string[] | undefined;

// What is owed, to whom, by when, and what to pay now.
export function InvoiceOverview({ inv, locale }: { inv: TRecipientInvoice; locale: Locale }) {
  const a = amounts(inv);
  const s = statusWords(inv);
  const money = (m: string) => formatMinor(m, inv.currency, { locale });
  const paid = inv.status === "RECONCILED";
  return (
    <section aria-labelledby="overview-title" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm text-slate-600">Payment request from</p>
          <h1 id="overview-title" className="break-words text-2xl font-semibold tracking-tight">
            {inv.issuer_name || "Your supplier"}
          </h1>
        </div>
        <Badge tone={s.tone}>{s.label}</Badge>
      </div>
      <p className="mt-2 text-sm text-slate-700" data-testid="status-detail">
        {s.detail}
      </p>

      <div className="mt-5 rounded-lg bg-slate-50 p-4">
        <p className="text-sm font-medium text-slate-700">{paid ? "Amount" : "Amount owed"}</p>
        <p className="mt-1 break-words text-3xl font-semibold tabular-nums tracking-tight" data-testid="amount">
          {money(a.outstanding === "0" || paid ? a.total : a.outstanding)}
        </p>
        <p className="mt-1 text-sm text-slate-700">
          {paid ? "Paid in full" : <>Pay by <strong>{formatDate(inv.due_date, locale)}</strong></>}
          {" · "}
          <span>Currency {inv.currency}</span>
        </p>
      </div>

      {!paid && (
        <div className="mt-4 rounded-lg border border-brand-600/30 bg-brand-50 p-4" data-testid="to-pay-now">
          <p className="text-sm font-medium text-slate-800">To pay now</p>
          <p className="mt-1 text-2xl font-semibold tabular-nums">{money(a.toPayNow)}</p>
          <p className="mt-1 text-sm text-slate-700">
            {a.toPayNow === "0" ? "Nothing is due yet under the payment terms." : "The part of the amount that is due today under the payment terms."}
            {inv.status === "PAYMENT_CLAIMED" && ` A payment you reported counts once ${inv.issuer_name || "the sender"} confirms it.`}
          </p>
        </div>
      )}

      <dl className="mt-5 grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <Item term="Invoice number" value={inv.invoice_number} />
        <Item term="Reference to quote" value={inv.reference} />
        {inv.obligation_label && <Item term="About" value={inv.obligation_label} />}
        {inv.description && <Item term="Description" value={inv.description} />}
        <Item term="Total amount" value={money(a.total)} />
        <Item term="Released under the payment terms" value={money(a.payableNow)} />
        <Item term="Due by today" value={money(a.dueNow)} />
        {a.received !== "0" && <Item term="Received so far" value={money(a.received)} />}
        {inv.expected_payment_date && <Item term="You expect to pay on" value={formatDate(inv.expected_payment_date, locale)} />}
        {inv.reported_payment_date && <Item term="You reported paying on" value={formatDate(inv.reported_payment_date, locale)} />}
        {inv.recipient_name && <Item term="Billed to" value={inv.recipient_name} />}
      </dl>
    </section>
  );
}

function Item({ term, value }: { term: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-600">{term}</dt>
      <dd className="break-words font-medium text-slate-900">{value}</dd>
    </div>
  );
}
