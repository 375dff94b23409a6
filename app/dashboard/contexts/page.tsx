import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { listBusinessContexts } from "@/lib/contexts/list-business-contexts";
import { CONTEXT_KINDS, ZListBusinessContextsQuery } from "@/lib/schemas/contexts";
import { requestLocale } from "@/lib/dashboard/locale";
import { formatTimestamp } from "@/lib/dashboard/format";
import { Empty, Section } from "@/components/ui/section";
import { Pagination } from "@/components/ui/pagination";
import { btn, card, field, link } from "@/components/ui/styles";
import { Label } from "@/components/ui/field";
import { NewContextForm } from "@/components/contexts/new-context-form";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Business contexts" };

const KIND_LABELS: Record<string, string> = { company: "Companies", group: "Groups (projects)", reference: "References (orders, invoices…)" };

export default async function ContextsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser({ permission: "contexts:read" });
  const locale = await requestLocale();
  const sp = await searchParams;
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  // the API's own query schema; an invalid query shows the unfiltered first page
  const parsed = ZListBusinessContextsQuery.safeParse({
    limit: one(sp.limit),
    offset: one(sp.offset),
    context_kind: one(sp.kind) ?? "",
    search: one(sp.search) ?? "",
  });
  const q = parsed.success ? parsed.data : ZListBusinessContextsQuery.parse({});
  const list = await listBusinessContexts(db(), { organizationId: user.organizationId, query: q });
  const filters: Record<string, string> = { ...(q.search ? { search: q.search } : {}), ...(q.context_kind ? { kind: q.context_kind } : {}) };

  return (
    <div className="space-y-6">
      <PageHeader
        title="Business contexts"
        description="Companies, projects, orders and other objects your obligations relate to. They can relate to each other in any shape."
      />

      {user.can("contexts:write") && (
        <Section title="New context" id="new-context">
          <NewContextForm />
        </Section>
      )}

      <div>
        <search aria-label="Find contexts">
          <form className="mb-4 flex flex-wrap items-end gap-3" action="/dashboard/contexts">
            <div className="min-w-0 flex-1">
              <Label htmlFor="ctx-search">Search name or reference</Label>
              <input id="ctx-search" name="search" type="search" defaultValue={q.search} className={field.input} />
            </div>
            <div>
              <Label htmlFor="ctx-kind">Kind</Label>
              <select id="ctx-kind" name="kind" defaultValue={q.context_kind} className={field.input}>
                <option value="">All kinds</option>
                {CONTEXT_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {KIND_LABELS[k]}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className={btn.secondary}>
              Search
            </button>
            {(q.search || q.context_kind) && (
              <Link href="/dashboard/contexts" className="py-2 text-sm text-brand-700 underline">
                Clear
              </Link>
            )}
          </form>
        </search>

        {list.items.length === 0 ? (
          <Empty>{q.search || q.context_kind ? "No context matches." : "No business contexts yet."}</Empty>
        ) : (
          <ul className={`${card} divide-y divide-slate-100`}>
            {list.items.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                <div className="min-w-0">
                  <Link href={`/dashboard/contexts/${c.id}`} className={`${link} break-words font-medium`}>
                    {c.name}
                  </Link>
                  <p className="text-sm text-slate-600">
                    {c.type_label}
                    {c.reference ? ` · ${c.reference}` : ""}
                    {c.external_reference ? ` · ${c.external_reference.namespace}/${c.external_reference.id}` : ""}
                  </p>
                </div>
                <p className="text-xs text-slate-600">
                  Created <time dateTime={c.created_at}>{formatTimestamp(c.created_at, locale)}</time>
                </p>
              </li>
            ))}
          </ul>
        )}
        <Pagination basePath="/dashboard/contexts" limit={q.limit} offset={q.offset} shown={list.items.length} params={filters} />
      </div>
    </div>
  );
}
