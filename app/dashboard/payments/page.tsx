import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { listPayments } from "@/lib/payments/list-payments";
import { countPayments } from "@/lib/payments/count-payments";
import { ZPageQuery, todayUtc } from "@/lib/schemas/common";
import { requestLocale } from "@/lib/dashboard/locale";
import { formatDay, money } from "@/lib/dashboard/format";
import { Empty, Section } from "@/components/ui/section";
import { Pill } from "@/components/ui/status-badge";
import { Pagination } from "@/components/ui/pagination";
import { btn, card, field, link } from "@/components/ui/styles";
import { RecordPaymentForm } from "@/components/payments/record-payment-form";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Payments" };

const STATUS_FILTERS = [
  ["", "Any status"],
  ["unallocated", "Unallocated"],
  ["partially_allocated", "Partly allocated"],
  ["allocated", "Fully allocated"],
  ["dismissed", "Set aside (not a receivable)"],
] as const;

function AllocationState({ allocated, amount, dismissed }: { allocated: string; amount: string; dismissed: boolean }) {
  if (dismissed) return <Pill tone="slate">Set aside</Pill>;
  if (allocated === "0") return <Pill tone="amber">Unallocated</Pill>;
  if (allocated === amount) return <Pill tone="emerald">Fully allocated</Pill>;
  return <Pill tone="sky">Partly allocated</Pill>;
}

export default async function PaymentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser({ permission: "payments:read" });
  const locale = await requestLocale();
  const sp = await searchParams;
  const parsed = ZPageQuery.safeParse({ limit: sp.limit ?? undefined, offset: sp.offset ?? undefined });
  const page = parsed.success ? parsed.data : { limit: 50, offset: 0 };
  const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : "");
  const filter = { search: one(sp.q).slice(0, 200), status: STATUS_FILTERS.some(([k]) => k === one(sp.status)) ? one(sp.status) : "" };
  const filtered = filter.search !== "" || filter.status !== "";
  const list = await listPayments(db(), { organizationId: user.organizationId, query: page, ...(filtered ? { filter } : {}) });
  const total = await countPayments(db(), { organizationId: user.organizationId, ...(filtered ? { filter } : {}) });

  return (
    <div className="space-y-6">
      <PageHeader
        title="Payments"
        description="Payments you observed, e.g. on a bank statement. Recording one moves no money and settles nothing until you allocate it to obligations."
      />

      {user.can("payments:write") && (
        <Section title="Record a payment" id="record">
          <RecordPaymentForm today={todayUtc()} defaultCurrency={list.items[0]?.currency ?? "EUR"} locale={locale} />
        </Section>
      )}

      <div className="space-y-3">
        <form method="get" aria-label="Find payments" className="flex flex-wrap items-end gap-3">
          <div className="min-w-0 grow">
            <label htmlFor="payments-q" className="block text-sm font-medium text-slate-800">
              Payer, reference or amount
            </label>
            <input id="payments-q" name="q" defaultValue={filter.search} className={field.input} />
          </div>
          <div>
            <label htmlFor="payments-status" className="block text-sm font-medium text-slate-800">
              Status
            </label>
            <select id="payments-status" name="status" defaultValue={filter.status} className={field.input}>
              {STATUS_FILTERS.map(([k, l]) => (
                <option key={k} value={k}>
                  {l}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={btn.secondary}>
            Find
          </button>
          {filtered && (
            <Link href="/dashboard/payments" className={`${link} py-2 text-sm`}>
              Show all
            </Link>
          )}
        </form>
        {list.items.length === 0 ? (
          <Empty>{page.offset > 0 ? "Nothing on this page." : filtered ? "No payment matches." : "No payments recorded yet."}</Empty>
        ) : (
          <ul className={`${card} divide-y divide-slate-100`} aria-label="Payments">
            {list.items.map((p) => (
              <li key={p.id} className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-1 px-4 py-3">
                <div className="min-w-0">
                  <Link href={`/dashboard/payments/${p.id}`} className={`${link} break-words font-medium`}>
                    {p.payer_name || p.reference || "Payment"} · {money(p.amount_minor, p.currency, locale)}
                  </Link>
                  <p className="text-sm text-slate-600">
                    Received {formatDay(p.received_on, locale)}
                    {p.reference ? ` · ${p.reference}` : ""}
                    {p.allocations.length ? ` · ${p.allocations.length} ${p.allocations.length === 1 ? "allocation" : "allocations"}` : ""}
                  </p>
                </div>
                <div className="text-right">
                  <AllocationState allocated={p.allocated_minor} amount={p.amount_minor} dismissed={p.status === "dismissed"} />
                  {p.unallocated_minor !== "0" && p.status !== "dismissed" && (
                    <p className="mt-1 text-sm tabular-nums text-slate-700">{money(p.unallocated_minor, p.currency, locale)} left</p>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
        <Pagination
          basePath="/dashboard/payments"
          limit={page.limit}
          offset={page.offset}
          shown={list.items.length}
          total={total}
          params={filtered ? { q: filter.search, status: filter.status } : undefined}
        />
      </div>
    </div>
  );
}
