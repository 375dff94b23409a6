import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { listObligations } from "@/lib/obligations/list-obligations";
import { countObligations } from "@/lib/obligations/count-obligations";
import { listBusinessContexts } from "@/lib/contexts/list-business-contexts";
import { CURRENCIES, todayUtc } from "@/lib/schemas/common";
import { OBLIGATION_STATUSES, OBLIGATION_TYPES, type TObligationProjection } from "@/lib/schemas/obligations";
import { requestLocale } from "@/lib/dashboard/locale";
import { formatDay, money, STATUS_LABELS, TYPE_LABELS } from "@/lib/dashboard/format";
import { parseListFilters, type ListFilters } from "@/lib/dashboard/list-filters";
import { countListedObligations } from "@/lib/obligations/count-listed-obligations";
import { StatusBadge, Pill } from "@/components/ui/status-badge";
import { listCancelledIds } from "@/lib/obligations/list-cancelled-ids";
import { Pagination } from "@/components/ui/pagination";
import { Empty } from "@/components/ui/section";
import { btn, card, field, link } from "@/components/ui/styles";
import { Label } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "Obligations" };

const counterparty = (o: TObligationProjection) => (o.organization_role === "creditor" ? o.debtor : o.creditor);
const outstanding = (o: TObligationProjection) => (BigInt(o.amount_minor) - BigInt(o.allocated_minor)).toString();
const listHref = (params: Record<string, string>) => `/dashboard/obligations${Object.keys(params).length ? `?${new URLSearchParams(params)}` : ""}`;
const isOverdue = (o: TObligationProjection, today: string) => o.status !== "RECONCILED" && o.deadline < today;

export default async function ObligationsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser({ permission: "obligations:read" });
  const locale = await requestLocale();
  // the API's own query schema (GET /obligations); an invalid field is dropped and named
  const filters = parseListFilters(await searchParams);
  const { limit, offset, ...query } = filters.query;
  const page = { limit, offset };
  const today = todayUtc();
  // Sorted by amount, currencies are grouped (A–Z) rather than mixed: 100 JPY is not more than 90 EUR.
  const listed = await listObligations(db(), { organizationId: user.organizationId, query: { ...filters.query, currencyFirst: true } });
  const list = { ...listed, items: listed.items.map((i) => i.parse()) };
  const cancelled = await listCancelledIds(db(), { organizationId: user.organizationId, ids: list.items.map((i) => i.id) });
  const total = filters.active
    ? await countListedObligations(db(), { organizationId: user.organizationId, query, today })
    : await countObligations(db(), { organizationId: user.organizationId });
  const contexts = user.can("contexts:read")
    ? (
        await listBusinessContexts(db(), {
          organizationId: user.organizationId,
          query: { limit: 100, offset: 0, search: "", context_type: "", context_kind: "" },
        })
      ).items
    : [];
  const exportHref = `/dashboard/obligations/export${Object.keys(filters.params).length ? `?${new URLSearchParams(filters.params)}` : ""}`;
  const nothingYet = list.items.length === 0 && !filters.active && offset === 0;

  return (
    <div>
      <PageHeader
        className="mb-4"
        title="Obligations"
        description="Filter, search and sort; the address of the page keeps them, so it can be bookmarked or shared. Amounts are in each obligation’s currency."
        actions={
          <div className="flex flex-wrap gap-2">
            {!nothingYet && (
              <a href={exportHref} className={btn.secondary} download>
                Export CSV<span className="sr-only"> of {filters.active ? "the filtered list" : "all obligations"}</span>
              </a>
            )}
            {user.can("obligations:write") && (
              <Link href="/dashboard/obligations/new" className={btn.primary}>
                New obligation
              </Link>
            )}
          </div>
        }
      />

      {!nothingYet && <Filters filters={filters} contexts={contexts} limit={limit} />}

      <p className="mb-3 text-sm text-slate-700" aria-live="polite">
        {filters.active
          ? `${total} ${total === 1 ? "obligation matches" : "obligations match"} the filters.`
          : `${total} ${total === 1 ? "obligation" : "obligations"}.`}{" "}
        {sortDescription(filters)}
      </p>

      {list.items.length === 0 ? (
        <Empty>
          {offset > 0 ? (
            <>
              Nothing on this page.{" "}
              <Link href={listHref(filters.params)} className="text-brand-700 underline">
                Back to the first page
              </Link>
            </>
          ) : filters.active ? (
            <>
              No obligations match these filters.{" "}
              <Link href="/dashboard/obligations" className="text-brand-700 underline">
                Clear the filters
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
                  {cancelled.has(o.id) ? <Pill tone="slate">Cancelled</Pill> : <StatusBadge status={o.status} />}
                </div>
                <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
                  <dt className="text-slate-600">Amount</dt>
                  <dd className="text-right font-medium tabular-nums">{money(o.amount_minor, o.currency, locale)}</dd>
                  <dt className="text-slate-600">Allocated</dt>
                  <dd className="text-right tabular-nums">{money(o.allocated_minor, o.currency, locale)}</dd>
                  <dt className="text-slate-600">Outstanding</dt>
                  <dd className="text-right tabular-nums">{money(outstanding(o), o.currency, locale)}</dd>
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
              <caption className="sr-only">Obligations, {sortDescription(filters).toLowerCase()}</caption>
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
                  <th scope="col" className="px-4 py-2.5 text-right font-medium">
                    Outstanding
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
                    <td className="px-4 py-2.5 text-right tabular-nums">{money(outstanding(o), o.currency, locale)}</td>
                    <td className="px-4 py-2.5">{cancelled.has(o.id) ? <Pill tone="slate">Cancelled</Pill> : <StatusBadge status={o.status} />}</td>
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
      <Pagination basePath="/dashboard/obligations" limit={page.limit} offset={page.offset} shown={list.items.length} total={total} params={filters.params} />
    </div>
  );
}

const SORTS: { value: string; label: string }[] = [
  { value: "created_at", label: "Registration time" },
  { value: "updated_at", label: "Last update" },
  { value: "deadline", label: "Deadline" },
  { value: "amount", label: "Amount" },
  { value: "outstanding", label: "Outstanding" },
];
const OPEN_STATUSES = OBLIGATION_STATUSES.filter((s) => s !== "RECONCILED").join(",");

function sortDescription(f: ListFilters): string {
  const sort = f.query.sort ?? "created_at";
  const asc = (f.query.direction ?? (sort === "deadline" ? "asc" : "desc")) === "asc";
  const what: Record<string, [string, string]> = {
    created_at: ["Oldest first", "Newest first"],
    updated_at: ["Least recently updated first", "Most recently updated first"],
    deadline: ["Earliest deadline first", "Latest deadline first"],
    amount: ["Smallest amount first", "Largest amount first"],
    outstanding: ["Smallest outstanding amount first", "Largest outstanding amount first"],
  };
  const grouped = (sort === "amount" || sort === "outstanding") && !f.query.currency;
  return `${what[sort][asc ? 0 : 1]}${grouped ? " within each currency, currencies in alphabetical order" : ""}.`;
}

function Select(props: { name: string; label: string; value: string; options: { value: string; label: string }[] }) {
  const id = `filter-${props.name}`;
  const known = props.options.some((o) => o.value === props.value);
  return (
    <div>
      <Label htmlFor={id}>{props.label}</Label>
      <select id={id} name={props.name} defaultValue={props.value} className={field.input}>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
        {!known && <option value={props.value}>{props.value}</option>}
      </select>
    </div>
  );
}

// A plain GET form: it works without JavaScript, and every filter lands in the address,
// so back/forward, bookmarks and the CSV export link all carry the same list.
function Filters({ filters, contexts, limit }: { filters: ListFilters; contexts: { id: string; name: string; reference: string }[]; limit: number }) {
  const v = filters.values;
  const contextOptions = [{ value: "", label: "Any" }, ...contexts.map((c) => ({ value: c.id, label: c.reference ? `${c.name} (${c.reference})` : c.name }))];
  return (
    <form method="get" action="/dashboard/obligations" aria-label="Filter obligations" className={`${card} mb-4 p-4`}>
      {filters.errors.length > 0 && (
        <div role="alert" className="mb-3 rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">
          Some filters were not understood and are ignored: {filters.errors.map((e) => `${e.field}: ${e.message}`).join("; ")}
        </div>
      )}
      <div>
        <Label htmlFor="filter-search">Search</Label>
        <input
          id="filter-search"
          type="search"
          name="search"
          defaultValue={v.search}
          maxLength={200}
          aria-describedby="filter-search-hint"
          className={field.input}
        />
        <p id="filter-search-hint" className={field.hint}>
          Reference, invoice number, counterparty name or email, external id or payment reference (RF…).
        </p>
      </div>
      <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Select
          name="status"
          label="Status"
          value={v.status}
          options={[
            { value: "", label: "Any" },
            { value: OPEN_STATUSES, label: "Open (not reconciled)" },
            ...OBLIGATION_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
          ]}
        />
        <Select
          name="role"
          label="Direction"
          value={v.role}
          options={[
            { value: "", label: "Both" },
            { value: "creditor", label: "Owed to you" },
            { value: "debtor", label: "You owe" },
          ]}
        />
        <Select
          name="type"
          label="Type"
          value={v.type}
          options={[{ value: "", label: "Any" }, ...OBLIGATION_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))]}
        />
        <Select
          name="currency"
          label="Currency"
          value={v.currency}
          options={[{ value: "", label: "Any" }, ...CURRENCIES.map((c) => ({ value: c, label: c }))]}
        />
        <Select
          name="overdue"
          label="Deadline"
          value={v.overdue}
          options={[
            { value: "", label: "Any" },
            { value: "true", label: "Overdue" },
            { value: "false", label: "Not overdue" },
          ]}
        />
        {contexts.length > 0 && <Select name="context_id" label="Business context" value={v.context_id} options={contextOptions} />}
        <Select
          name="sort"
          label="Sort by"
          value={v.sort === "created_at" ? "" : v.sort}
          options={[{ value: "", label: "Registration time" }, ...SORTS.slice(1)]}
        />
        <Select
          name="direction"
          label="Order"
          value={v.direction}
          options={[
            { value: "", label: "Default" },
            { value: "asc", label: "Ascending" },
            { value: "desc", label: "Descending" },
          ]}
        />
      </div>
      {limit !== 50 && <input type="hidden" name="limit" value={limit} />}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button type="submit" className={btn.primary}>
          Apply
        </button>
        {(filters.active || Object.keys(filters.params).length > 0) && (
          <Link href="/dashboard/obligations" className={btn.secondary}>
            Clear filters
          </Link>
        )}
      </div>
    </form>
  );
}
