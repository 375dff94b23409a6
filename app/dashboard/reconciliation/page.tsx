import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { ZPageQuery } from "@/lib/schemas/common";
import { requestLocale } from "@/lib/dashboard/locale";
import { formatDay, money } from "@/lib/dashboard/format";
import { listUnallocatedPayments, UNALLOCATED_WINDOW, type UnallocatedFilter } from "@/lib/reconciliation/list-unallocated-payments";
import { listBankStatements } from "@/lib/reconciliation/list-bank-statements";
import { Empty, ReadOnlyNotice, Section } from "@/components/ui/section";
import { Pagination } from "@/components/ui/pagination";
import { PageHeader } from "@/components/ui/page-header";
import { Pill } from "@/components/ui/status-badge";
import { card, link } from "@/components/ui/styles";
import { StatementImport } from "@/components/reconciliation/statement-import";
import { AcceptSuggestionButton } from "@/components/reconciliation/accept-suggestion-button";
import { DismissPaymentButton } from "@/components/payments/dismiss-actions";
import { SuggestionView, allocationWords } from "@/components/reconciliation/suggestion-view";
import { StatementList } from "@/components/reconciliation/statement-list";
import { Announcer } from "@/components/reconciliation/announcer";
import { ReconciliationSettingsForm } from "@/components/reconciliation/reconciliation-settings-form";
import { Figures } from "@/components/ui/figures";
import { ADMINISTRATION } from "@/lib/auth/permissions";
import { getReconciliationSettings } from "@/lib/reconciliation/get-reconciliation-settings";
import { getReconciliationStats } from "@/lib/reconciliation/get-reconciliation-stats";
import { settingsInWords } from "@/lib/dashboard/reconciliation-settings-words";
import { shortPayment } from "@/lib/dashboard/short-payment";

export const metadata: Metadata = { title: "Reconciliation" };

const FILTERS: { value: UnallocatedFilter; param: string; label: string }[] = [
  { value: "needs_person", param: "needs-person", label: "Needs a person" },
  { value: "all", param: "all", label: "All unallocated" },
];

// Reconciliation: a bank statement in (progress, then what it did), the payments that still
// have something to allocate with their best suggestion and its evidence, accepted in one
// step or split by hand on the payment's own page, and the statements imported so far.
export default async function ReconciliationPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser({ permission: "payments:read" });
  const locale = await requestLocale();
  const sp = await searchParams;
  const filter = FILTERS.find((f) => f.param === sp.show) ?? FILTERS[0];
  const parsed = ZPageQuery.safeParse({ limit: sp.limit ?? "20", offset: sp.offset ?? undefined });
  const page = parsed.success ? parsed.data : { limit: 20, offset: 0 };
  const canWrite = user.can("payments:write");
  const list = await listUnallocatedPayments(db(), { organizationId: user.organizationId, filter: filter.value, ...page });
  const statements = await listBankStatements(db(), { organizationId: user.organizationId, limit: 5, offset: 0 });
  const settings = await getReconciliationSettings(db(), { organizationId: user.organizationId });
  const stats = await getReconciliationStats(db(), { organizationId: user.organizationId, query: {} });
  const rate = (n: number) => (stats.transactions_imported ? `${Math.round((n / stats.transactions_imported) * 100)} %` : "–");

  return (
    <div className="space-y-6">
      <PageHeader
        title="Reconciliation"
        description="Bank statements become payments; each payment is matched to open obligations with the evidence in words. What the settings below allow is allocated at import; everything else waits for you here."
      />
      {!canWrite && <ReadOnlyNotice />}

      <Section
        title="Last 30 days"
        id="stats"
        description={`Bank transactions booked from ${formatDay(stats.from, locale)} to ${formatDay(stats.to, locale)}: how they were allocated.`}
      >
        <Figures
          className="grid grid-cols-2 gap-3 sm:grid-cols-4"
          items={[
            ["Imported", stats.transactions_imported],
            ["Touchless", `${rate(stats.allocated_automatically)} (${stats.allocated_automatically})`],
            ["One click", `${rate(stats.accepted_as_suggested)} (${stats.accepted_as_suggested})`],
            ["By hand", stats.allocated_by_hand],
            ["Not a receivable", stats.dismissed],
            ["Automatic allocations reversed", stats.automatic_allocations_reversed],
          ]}
        />
      </Section>

      {canWrite && (
        <Section title="Import a bank statement" id="import">
          <StatementImport locale={locale} />
        </Section>
      )}

      <section aria-labelledby="unallocated-title" className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <h2 id="unallocated-title" className="text-lg font-semibold">
            Unallocated payments
          </h2>
          <nav aria-label="Filter payments" className="flex gap-1 text-sm">
            {FILTERS.map((f) => (
              <Link
                key={f.param}
                href={`/dashboard/reconciliation?show=${f.param}`}
                aria-current={f.param === filter.param ? "page" : undefined}
                className={`rounded-md px-3 py-1.5 ${f.param === filter.param ? "bg-brand-50 font-medium text-brand-900" : "text-slate-700 hover:bg-slate-100"}`}
              >
                {f.label}
              </Link>
            ))}
          </nav>
        </div>
        <p className="text-sm text-slate-600">
          {filter.value === "needs_person"
            ? "Payments with something left to allocate and no exact match: each needs a person to decide."
            : "Every payment with something left to allocate, exact matches included."}
          {list.window_full ? ` Only the ${UNALLOCATED_WINDOW} most recent unallocated payments are looked at.` : ""}
        </p>
        <Announcer>
          {list.items.length === 0 ? (
            <Empty>
              {page.offset > 0 ? "Nothing on this page." : filter.value === "needs_person" ? "Nothing needs a person." : "Every payment is allocated."}
            </Empty>
          ) : (
            <ul className="space-y-3" aria-label="Unallocated payments">
              {list.items.map(({ payment: p, best, suggestions }) => {
                const who = p.payer_name || p.reference || "Payment";
                return (
                  <li key={p.id} className={`${card} p-4`} aria-labelledby={`pay-${p.id}`}>
                    <div className="flex flex-wrap items-start justify-between gap-2">
                      <div className="min-w-0">
                        <h3 id={`pay-${p.id}`} className="break-words font-medium">
                          <Link href={`/dashboard/reconciliation/payments/${p.id}`} className={link}>
                            {p.direction === "incoming" ? "From" : "To"} {who} · {money(p.amount_minor, p.currency, locale)}
                          </Link>
                        </h3>
                        <p className="break-words text-sm text-slate-600">
                          {p.direction === "incoming" ? "Received" : "Paid"} {formatDay(p.received_on, locale)}
                          {p.reference ? ` · ${p.reference}` : ""}
                          {p.allocated_minor !== "0" ? ` · ${money(p.unallocated_minor, p.currency, locale)} left` : ""}
                        </p>
                      </div>
                      <Pill tone={p.direction === "incoming" ? "sky" : "slate"}>{p.direction === "incoming" ? "Money in" : "Money out"}</Pill>
                    </div>
                    <div className="mt-3">
                      {best ? (
                        <>
                          <p className="mb-1 text-xs font-medium uppercase tracking-wide text-slate-600">
                            Best suggestion{suggestions > 1 ? ` of ${suggestions}` : ""}
                          </p>
                          <SuggestionView s={best} currency={p.currency} locale={locale} />
                        </>
                      ) : (
                        <p className="text-sm text-slate-600">No suggestion: no open obligation matches this payment&apos;s references, amount or payer.</p>
                      )}
                    </div>
                    {canWrite && (
                      <div className="mt-3 flex flex-wrap items-start gap-3">
                        {best && (
                          // No key of its own: a refused acceptance keeps its message when the row is re-read.
                          <AcceptSuggestionButton
                            paymentId={p.id}
                            suggestionId={best.id}
                            {...shortPayment(best, settings, p.currency, locale)}
                            description={`${allocationWords(best, p.currency, locale)} from ${who}`}
                          />
                        )}
                        <Link
                          href={`/dashboard/reconciliation/payments/${p.id}`}
                          className="inline-flex items-center rounded-md px-2 py-2 text-sm font-medium text-brand-700 underline"
                        >
                          {best ? "Other suggestions or split by hand" : "Allocate by hand"}
                          <span className="sr-only"> for {who}</span>
                        </Link>
                        {p.allocated_minor === "0" && <DismissPaymentButton paymentId={p.id} who={who} />}
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </Announcer>
        <Pagination
          basePath="/dashboard/reconciliation"
          limit={page.limit}
          offset={page.offset}
          shown={list.items.length}
          total={list.total}
          params={{ show: filter.param }}
        />
      </section>

      <Section title="Settings" id="settings" description="How bank transactions are allocated without a person.">
        {user.can(ADMINISTRATION) ? (
          <ReconciliationSettingsForm current={settings} />
        ) : (
          <div className="space-y-1 text-sm text-slate-700">
            {settingsInWords(settings).map((w) => (
              <p key={w}>{w}</p>
            ))}
            <p className="text-slate-600">Owners and admins can change these settings.</p>
          </div>
        )}
      </Section>

      <Section
        title="Bank statements"
        id="statements"
        actions={
          <Link href="/dashboard/reconciliation/statements" className={`${link} text-sm font-medium`}>
            All statements
          </Link>
        }
      >
        <StatementList items={statements.items} locale={locale} />
      </Section>
    </div>
  );
}
