import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { listObligations } from "@/lib/obligations/list-obligations";
import { countObligations } from "@/lib/obligations/count-obligations";
import { ZPageQuery, todayUtc } from "@/lib/schemas/common";
import type { TObligationProjection } from "@/lib/schemas/obligations";
import { requestLocale } from "@/lib/dashboard/locale";
import { formatDay, money, TYPE_LABELS } from "@/lib/dashboard/format";
import { StatusBadge, Pill } from "@/components/ui/status-badge";
import { Pagination } from "@/components/ui/pagination";
import { Empty } from "@/components/ui/section";
import { btn, card, link } from "@/components/ui/styles";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Obligations" };

const counterparty = (o: TObligationProjection) => (o.organization_role === "creditor" ? o.debtor : o.creditor);
const isOverdue = (o: TObligationProjection, today: string) => o.status !== "RECONCILED" && o.deadline < today;

export default async function ObligationsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser({ permission: "obligations:read" });
  const locale = await requestLocale();
  const sp = await searchParams;
  // the API's own page schema; anything invalid falls back to the first page
  const parsed = ZPageQuery.safeParse({ limit: sp.limit ?? undefined, offset: sp.offset ?? undefined });
  const page = parsed.success ? parsed.data : { limit: 50, offset: 0 };
  const list = await listObligations(db(), { organizationId: user.organizationId, query: page });
  const total = await countObligations(db(), { organizationId: user.organizationId });
  const today = todayUtc();

  return (
    <div>
      <PageHeader
        className="mb-4"
        title="Obligations"
        description="Newest first. Amounts are in each obligation’s currency."
        actions={
          user.can("obligations:write") && (
            <Link href="/dashboard/obligations/new" className={btn.primary}>
              New obligation
            </Link>
          )
        }
      />

      {list.items.length === 0 ? (
        <Empty>
          {page.offset > 0 ? (
            <>
              Nothing on this page.{" "}
              <Link href="/dashboard/obligations" className="text-brand-700 underline">
                Back to the first page
              </Link>
            </>
          ) : (
            "No obligations yet."
          )}
        </Empty>
      ) : (
        <>
          {/* Small screens: one card per obligation */}
          <ul className="space-y-3 md:hidden" aria-label="Obligations">
            {list.items.map((o) => (
              <li key={o.id} className={`${card} p-4`}>
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <Link href={`/dashboard/obligations/${o.id}`} className={`${link} block truncate font-medium`}>
                      {counterparty(o).name || o.reference}
                    </Link>
                    <p className="truncate text-sm text-slate-600">
                      {o.reference} · {o.business_context.invoice_number}
                    </p>
                  </div>
                  <StatusBadge status={o.status} />
                </div>
                <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
                  <dt className="text-slate-600">Amount</dt>
                  <dd className="text-right font-medium tabular-nums">{money(o.amount_minor, o.currency, locale)}</dd>
                  <dt className="text-slate-600">Allocated</dt>
                  <dd className="text-right tabular-nums">{money(o.allocated_minor, o.currency, locale)}</dd>
                  <dt className="text-slate-600">Deadline</dt>
                  <dd className={`text-right ${isOverdue(o, today) ? "font-medium text-rose-700" : ""}`}>
                    {formatDay(o.deadline, locale)}
                    {isOverdue(o, today) && " (overdue)"}
                  </dd>
                  <dt className="text-slate-600">Acknowledged</dt>
                  <dd className="text-right">{o.acknowledged ? "Yes" : "No"}</dd>
                </dl>
              </li>
            ))}
          </ul>

          {/* Wider screens: a table */}
          <div className={`${card} hidden overflow-x-auto md:block`}>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Obligations, newest first</caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-700">
                <tr>
                  <th scope="col" className="px-4 py-2.5 font-medium">
                    Reference
                  </th>
                  <th scope="col" className="px-4 py-2.5 font-medium">
                    Counterparty
                  </th>
                  <th scope="col" className="px-4 py-2.5 text-right font-medium">
                    Amount
                  </th>
                  <th scope="col" className="px-4 py-2.5 text-right font-medium">
                    Allocated
                  </th>
                  <th scope="col" className="px-4 py-2.5 font-medium">
                    Status
                  </th>
                  <th scope="col" className="px-4 py-2.5 font-medium">
                    Deadline
                  </th>
                  <th scope="col" className="px-4 py-2.5 font-medium">
                    Acknowledged
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {list.items.map((o) => (
                  <tr key={o.id} className="hover:bg-slate-50">
                    <td className="px-4 py-2.5">
                      <Link href={`/dashboard/obligations/${o.id}`} className={`${link} font-medium`}>
                        {o.reference}
                      </Link>
                      <p className="text-xs text-slate-600">
                        {TYPE_LABELS[o.obligation_type]} · {o.business_context.invoice_number}
                      </p>
                    </td>
                    <td className="px-4 py-2.5">
                      <span className="font-medium">{counterparty(o).name}</span>
                      <p className="text-xs text-slate-600">{o.organization_role === "creditor" ? "Owes you" : "You owe"}</p>
                    </td>
                    <td className="px-4 py-2.5 text-right font-medium tabular-nums">{money(o.amount_minor, o.currency, locale)}</td>
                    <td className="px-4 py-2.5 text-right tabular-nums">{money(o.allocated_minor, o.currency, locale)}</td>
                    <td className="px-4 py-2.5">
                      <StatusBadge status={o.status} />
                    </td>
                    <td className="whitespace-nowrap px-4 py-2.5">
                      {formatDay(o.deadline, locale)}
                      {isOverdue(o, today) && (
                        <span className="ml-1.5">
                          <Pill tone="rose">Overdue</Pill>
                        </span>
                      )}
                    </td>
                    <td className="px-4 py-2.5">{o.acknowledged ? <Pill tone="emerald">Yes</Pill> : <span className="text-slate-600">No</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <Pagination basePath="/dashboard/obligations" limit={page.limit} offset={page.offset} shown={list.items.length} total={total} />
    </div>
  );
}
