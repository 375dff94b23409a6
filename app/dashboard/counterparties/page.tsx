import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { listCounterparties } from "@/lib/counterparties/list-counterparties";
import { ZCounterpartyListQuery } from "@/lib/schemas/counterparties";
import { requestLocale } from "@/lib/dashboard/locale";
import { money } from "@/lib/dashboard/format";
import { Empty } from "@/components/ui/section";
import { btn, card, field, link } from "@/components/ui/styles";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Counterparties" };

// The organization's debtors, grouped by email or normalized name (docs/dashboard.md).
export default async function CounterpartiesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser({ permission: "obligations:read" });
  const locale = await requestLocale();
  const sp = await searchParams;
  const one = (v: string | string[] | undefined) => (typeof v === "string" ? v : undefined);
  const parsed = ZCounterpartyListQuery.safeParse({ q: one(sp.q)?.slice(0, 200), limit: "100", offset: one(sp.offset) });
  const query = parsed.success ? parsed.data : { q: "", limit: 100, offset: 0 };
  const list = await listCounterparties(db(), { organizationId: user.organizationId, ...query });
  const totals = (xs: { currency: string; amount_minor: string }[]) => xs.map((x) => money(x.amount_minor, x.currency, locale)).join(" · ");

  return (
    <div className="space-y-6">
      <PageHeader title="Counterparties" description="Who owes you: the debtors of your obligations, with what is open and what is overdue." />
      <form method="get" aria-label="Find counterparties" className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 grow">
          <label htmlFor="counterparties-q" className="block text-sm font-medium text-slate-800">
            Name or email
          </label>
          <input id="counterparties-q" name="q" defaultValue={query.q} className={field.input} />
        </div>
        <button type="submit" className={btn.secondary}>
          Find
        </button>
        {query.q !== "" && (
          <Link href="/dashboard/counterparties" className={`${link} py-2 text-sm`}>
            Show all
          </Link>
        )}
      </form>
      {list.items.length === 0 ? (
        <Empty>{query.q !== "" ? "No counterparty matches." : "No counterparties yet: they appear with the obligations you register."}</Empty>
      ) : (
        <ul className={`${card} divide-y divide-slate-100`} aria-label="Counterparties">
          {list.items.map((c) => (
            <li key={c.id} className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-1 px-4 py-3">
              <div className="min-w-0">
                <Link href={`/dashboard/counterparties/${c.id}`} className={`${link} break-words font-medium`}>
                  {c.name || c.email || "Unnamed"}
                </Link>
                <p className="break-words text-sm text-slate-600">
                  {c.email ?? "No email"} · {c.open_count} open
                </p>
              </div>
              <div className="text-right text-sm tabular-nums">
                <p className="text-slate-900">{c.outstanding.length ? totals(c.outstanding) : "Nothing open"}</p>
                {c.overdue.length > 0 && <p className="text-red-700">Overdue {totals(c.overdue)}</p>}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
