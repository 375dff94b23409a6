"use client";

import { formatDate } from "@/lib/format/dates";
import { formatMinor } from "@/lib/money/format";
import type { TRecipientInvoice } from "@/lib/schemas/recipient";
import { amounts, issuerOf, statusWords } from "@/components/recipient/present";
import { useI18n } from "@/components/recipient/i18n";
import { Badge } from "@/components/recipient/ui";

// What is owed, to whom, by when, and what to pay now.
export function InvoiceOverview({ inv }: { inv: TRecipientInvoice }) {
  const { t, locale } = useI18n();
  const a = amounts(inv);
  const s = statusWords(inv, t);
  const money = (m: string) => formatMinor(m, inv.currency, { locale });
  const paid = inv.status === "RECONCILED";
  return (
    <section
      aria-labelledby="overview-title"
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 print:border-0 print:p-0 print:shadow-none"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm text-slate-600">{t("overview.from")}</p>
          <h1 id="overview-title" className="break-words text-2xl font-semibold tracking-tight">
            {inv.issuer_name || t("who.supplier")}
          </h1>
        </div>
        <Badge tone={s.tone}>{s.label}</Badge>
      </div>
      <p className="mt-2 text-sm text-slate-700" data-testid="status-detail">
        {s.detail}
      </p>

      <div className="mt-5 rounded-lg bg-slate-50 p-4">
        <p className="text-sm font-medium text-slate-700">{paid ? t("overview.amount") : t("overview.amountOwed")}</p>
        <p className="mt-1 break-words text-3xl font-semibold tabular-nums tracking-tight" data-testid="amount">
          {money(a.outstanding === "0" || paid ? a.total : a.outstanding)}
        </p>
        <p className="mt-1 text-sm text-slate-700">
          {paid ? t("overview.paidInFull") : t("overview.payBy", { date: formatDate(inv.due_date, locale) })}
          {" · "}
          <span>{t("overview.currency", { currency: inv.currency })}</span>
        </p>
      </div>

      {!paid && (
        <div className="mt-4 rounded-lg border border-brand-600/30 bg-brand-50 p-4" data-testid="to-pay-now">
          <p className="text-sm font-medium text-slate-800">
            {a.lead.kind === "due_now"
              ? t("overview.toPayNow")
              : a.lead.kind === "payable_by"
                ? t("overview.toPayBy", { date: formatDate(a.lead.date, locale) })
                : t("overview.nothingPayable")}
          </p>
          {a.lead.kind !== "not_payable_yet" && <p className="mt-1 text-2xl font-semibold tabular-nums">{money(a.lead.amount)}</p>}
          <p className="mt-1 text-sm text-slate-700">
            {a.lead.kind === "due_now"
              ? t("overview.dueToday")
              : a.lead.kind === "payable_by"
                ? t("overview.payableBy", { date: formatDate(a.lead.date, locale) })
                : t("overview.nothingDue")}
            {inv.status === "PAYMENT_CLAIMED" && ` ${t("overview.claimedNote", { issuer: issuerOf(inv, t) })}`}
          </p>
        </div>
      )}

      <dl className="mt-5 grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 print:grid-cols-2">
        <Item term={t("item.invoiceNumber")} value={inv.invoice_number} />
        <Item term={t("item.reference")} value={inv.reference} />
        {inv.obligation_label && <Item term={t("item.about")} value={inv.obligation_label} />}
        {inv.description && <Item term={t("item.description")} value={inv.description} />}
        <Item term={t("item.total")} value={money(a.total)} />
        <Item term={t("item.released")} value={money(a.payableNow)} />
        <Item term={t("item.dueByToday")} value={money(a.dueNow)} />
        {a.received !== "0" && <Item term={t("item.received")} value={money(a.received)} />}
        {inv.expected_payment_date && <Item term={t("item.expect")} value={formatDate(inv.expected_payment_date, locale)} />}
        {inv.reported_payment_date && <Item term={t("item.reported")} value={formatDate(inv.reported_payment_date, locale)} />}
        {inv.recipient_name && <Item term={t("item.billedTo")} value={inv.recipient_name} />}
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
