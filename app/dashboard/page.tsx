import type { ReactNode } from "react";
import type { Metadata } from "next";
import Link from "next/link";
import { countRemindersThisWeek } from "@/lib/reminders/count-reminders-this-week";
import { requireUser } from "@/lib/auth/current-user";
import { db, transaction } from "@/lib/db/client";
import type { OutstandingTotal } from "@/lib/obligations/summarize-obligations";
import { listRecentEvents } from "@/lib/events/list-recent-events";
import { summarizeUnallocatedPayments } from "@/lib/payments/summarize-payments";
import { requestLocale } from "@/lib/dashboard/locale";
import { eventLabel, formatDay, formatTimestamp, money, STATUS_HELP, statusLabel } from "@/lib/dashboard/format";
import { OBLIGATION_STATUSES } from "@/lib/schemas/obligations";
import { Empty, Section } from "@/components/ui/section";
import { btn, card, link } from "@/components/ui/styles";
import { PageHeader } from "@/components/ui/page-header";
import { loadOverview } from "@/lib/overview/load-overview";
import { AgingChart, CashChart } from "@/components/dashboard/charts";

export const metadata: Metadata = { title: "Overview" };

function Totals({ rows, locale, empty }: { rows: OutstandingTotal[]; locale: string; empty: string }) {
  if (rows.length === 0) return <p className="mt-2 text-2xl font-semibold tabular-nums text-slate-900">{empty}</p>;
  return (
    <ul className="mt-2 space-y-1">
      {rows.map((r) => (
        <li key={r.currency} className="flex flex-wrap items-baseline justify-between gap-x-3">
          <span className="text-2xl font-semibold tabular-nums text-slate-900">{money(r.outstanding_minor, r.currency, locale)}</span>
          <span className="text-sm text-slate-600">
            {r.count} {r.count === 1 ? "obligation" : "obligations"}
          </span>
        </li>
      ))}
    </ul>
  );
}

export default async function Overview() {
  const user = await requireUser();
  const locale = await requestLocale();
  // A large organization's first overview of the day computes its snapshot (seconds at 1M).
  const { summary, aging, cash, asOf } = await transaction((tx) => loadOverview(tx, { organizationId: user.organizationId, overdueLimit: 8 }), 300_000);
  const events = await listRecentEvents(db(), { organizationId: user.organizationId, limit: 12 });
  const unallocated = user.can("payments:read") ? await summarizeUnallocatedPayments(db(), { organizationId: user.organizationId }) : [];
  const remindersThisWeek = await countRemindersThisWeek(db(), { organizationId: user.organizationId, today: summary.today });
  const owedToUs = summary.outstanding.filter((r) => r.organization_role === "creditor");
  const weOwe = summary.outstanding.filter((r) => r.organization_role === "debtor");
  const overdueOwed = summary.overdue.totals.filter((r) => r.organization_role === "creditor");

  return (
    <div className="space-y-6">
      <PageHeader
        title="Overview"
        description={`Outstanding amounts are what is not yet allocated from payments, as of ${formatDay(summary.today, locale)}.`}
        actions={
          user.can("obligations:write") && (
            <Link href="/dashboard/obligations/new" className={btn.primary}>
              New obligation
            </Link>
          )
        }
      />
      {asOf && (
        <p className="rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700">
          Figures as of <time dateTime={asOf}>{formatTimestamp(asOf, locale)}</time>: totals, counts and charts of an organization this size are computed ahead
          and refresh every few minutes. The overdue list below is current.
        </p>
      )}

      <div className="grid gap-4 md:grid-cols-3">
        <section aria-labelledby="card-owed" className={`${card} p-4`}>
          <h2 id="card-owed" className="text-sm font-medium text-slate-700">
            Owed to you
          </h2>
          <Totals rows={owedToUs} locale={locale} empty="Nothing outstanding" />
        </section>
        <section aria-labelledby="card-overdue" className={`${card} p-4 ${summary.overdue.count ? "border-rose-200" : ""}`}>
          <h2 id="card-overdue" className="text-sm font-medium text-slate-700">
            Overdue (owed to you)
          </h2>
          <Totals rows={overdueOwed} locale={locale} empty="Nothing overdue" />
        </section>
        <section aria-labelledby="card-owe" className={`${card} p-4`}>
          <h2 id="card-owe" className="text-sm font-medium text-slate-700">
            You owe
          </h2>
          <Totals rows={weOwe} locale={locale} empty="Nothing outstanding" />
        </section>
      </div>
      {remindersThisWeek !== null && (
        <p className="rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700" data-testid="reminders-this-week">
          Reminders this week: <span className="font-medium tabular-nums">{remindersThisWeek}</span> {remindersThisWeek === 1 ? "goes out" : "go out"} in the
          next 7 days.{" "}
          <Link href="/dashboard/settings/reminders" className="font-medium underline">
            Reminder settings
          </Link>
        </p>
      )}
      {unallocated.length > 0 && (
        <p className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          Payments to allocate:{" "}
          {unallocated.map((u, i) => (
            <span key={u.currency}>
              {i > 0 && ", "}
              <span className="font-medium tabular-nums">{money(u.unallocated_minor, u.currency, locale)}</span> ({u.count}{" "}
              {u.count === 1 ? "payment" : "payments"})
            </span>
          ))}
          .{" "}
          <Link href="/dashboard/payments" className="font-medium underline">
            Go to payments
          </Link>
        </p>
      )}

      <Section title="By status" id="status" description={`${summary.total} ${summary.total === 1 ? "obligation" : "obligations"} in total`}>
        <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
          {OBLIGATION_STATUSES.map((s) => (
            <li key={s} className="rounded-lg border border-slate-200 p-3">
              <p className="text-2xl font-semibold tabular-nums">{summary.counts[s]}</p>
              <p className="text-sm font-medium text-slate-800">{statusLabel(s)}</p>
              <p className="text-xs text-slate-600">{STATUS_HELP[s]}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Aging" id="aging" description="What is outstanding, by how many days past the deadline (UTC days; due today is not yet due)">
        <PerSeries series={aging} idPrefix="aging" chart={(s) => <AgingChart series={s} locale={locale} />} />
      </Section>

      <Section
        title="Cash expected"
        id="cash"
        description="When outstanding amounts fall due over the next eight weeks: payment terms' due dates, or the date a payer reported or you expect payment on"
      >
        <PerSeries series={cash} idPrefix="cash" chart={(s) => <CashChart series={s} locale={locale} />} />
      </Section>

      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Section
          title="Overdue"
          id="overdue"
          description={
            summary.overdue.count ? `${summary.overdue.count} past the deadline and not reconciled, most overdue first` : "Deadline passed and not reconciled"
          }
        >
          {summary.overdue.items.length === 0 ? (
            <Empty>Nothing is overdue.</Empty>
          ) : (
            <ul className="divide-y divide-slate-100">
              {summary.overdue.items.map((o) => (
                <li key={o.id} className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-x-3 py-2.5">
                  <div className="min-w-0">
                    <Link href={`/dashboard/obligations/${o.id}`} className={`${link} font-medium`}>
                      {o.counterparty || o.reference}
                    </Link>
                    <p className="text-sm text-slate-600">
                      {o.reference} · {o.invoice_number} · {o.organization_role === "creditor" ? "owed to you" : "you owe"}
                    </p>
                  </div>
                  <div className="text-right">
                    <p className="font-medium tabular-nums">{money(o.outstanding_minor, o.currency, locale)}</p>
                    <p className="text-sm text-rose-700">
                      {o.days_overdue} {o.days_overdue === 1 ? "day" : "days"} late · due {formatDay(o.deadline, locale)}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Section>

        <Section title="Recent activity" id="activity" description="The latest events across your obligations">
          {events.length === 0 ? (
            <Empty>No activity yet.</Empty>
          ) : (
            <ol className="divide-y divide-slate-100">
              {events.map((e) => (
                <li key={e.id} className="py-2.5">
                  <p className="text-sm">
                    <span className="font-medium">{eventLabel(e.event_type)}</span>
                    {e.obligation && (
                      <>
                        {" · "}
                        <Link href={`/dashboard/obligations/${e.obligation.id}`} className="text-brand-700 underline underline-offset-2">
                          {e.obligation.counterparty ? `${e.obligation.counterparty} (${e.obligation.reference})` : e.obligation.reference}
                        </Link>
                      </>
                    )}
                  </p>
                  <p className="text-xs text-slate-600">
                    {e.actor.label || e.actor.type} · <time dateTime={e.created_at}>{formatTimestamp(e.created_at, locale)}</time>
                  </p>
                </li>
              ))}
            </ol>
          )}
        </Section>
      </div>
    </div>
  );
}

// One chart per direction and currency, each under its heading (the chart names itself by it).
function PerSeries<S extends { organization_role: string; currency: string }>(props: { series: S[]; idPrefix: string; chart: (s: S) => ReactNode }) {
  if (props.series.length === 0) return <Empty>Nothing is outstanding.</Empty>;
  return (
    <div className="grid gap-6 md:grid-cols-2">
      {props.series.map((s) => (
        <div key={`${s.organization_role}-${s.currency}`}>
          <h3 id={`${props.idPrefix}-h-${s.organization_role}-${s.currency}`} className="mb-2 text-sm font-semibold text-slate-800">
            {s.organization_role === "creditor" ? "Owed to you" : "You owe"} · {s.currency}
          </h3>
          {props.chart(s)}
        </div>
      ))}
    </div>
  );
}
