import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { listInboxItems } from "@/lib/inbox/list-inbox-items";
import { INBOX_KIND_VALUES, ZInboxQuery, type TInboxItem } from "@/lib/schemas/inbox";
import { requestLocale } from "@/lib/dashboard/locale";
import { formatDay, formatTimestamp, money } from "@/lib/dashboard/format";
import { Empty } from "@/components/ui/section";
import { Pill } from "@/components/ui/status-badge";
import { Pagination } from "@/components/ui/pagination";
import { card, link } from "@/components/ui/styles";
import { PageHeader } from "@/components/ui/page-header";
import { MarkReadButton } from "@/components/inbox/mark-read-button";
import { DISPUTE_REASON_LABELS } from "@/components/obligations/detail/dispute-promise-section";

export const metadata: Metadata = { title: "Inbox" };

const KIND_LABELS: Record<TInboxItem["kind"], string> = {
  message: "Message",
  payment_reported: "Payment reported",
  dispute: "Dispute",
  promise: "Promise to pay",
  document: "Document uploaded",
};
const FILTER_LABELS: Record<TInboxItem["kind"], string> = {
  message: "Messages",
  payment_reported: "Reported payments",
  dispute: "Disputes",
  promise: "Promises",
  document: "Documents",
};

const str = (v: unknown) => (typeof v === "string" ? v : "");

// One line in words of what the payer sent.
function what(i: TInboxItem, locale: string): string {
  const d = i.detail;
  const cur = i.obligation.currency;
  switch (i.kind) {
    case "message":
      return str(d.message);
    case "payment_reported":
      return [
        `Paid on ${formatDay(str(d.reported_payment_date), locale)}`,
        str(d.amount_minor) ? money(str(d.amount_minor), cur, locale) : "",
        str(d.reference) ? `reference ${str(d.reference)}` : "",
        str(d.note),
      ]
        .filter(Boolean)
        .join(" · ");
    case "dispute":
      return [DISPUTE_REASON_LABELS[str(d.reason)] ?? str(d.reason), str(d.amount_minor) ? money(str(d.amount_minor), cur, locale) : "", str(d.message)]
        .filter(Boolean)
        .join(" · ");
    case "promise":
      return `Will pay ${str(d.amount_minor) ? money(str(d.amount_minor), cur, locale) : "everything outstanding"} on ${formatDay(str(d.date), locale)}`;
    case "document":
      return str(d.filename) || "A document";
  }
}

// What payers did through their hosted links: newest first, unread marked, filter by kind.
export default async function InboxPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser({ permission: "obligations:read" });
  const locale = await requestLocale();
  const sp = await searchParams;
  const one = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v : undefined);
  const parsed = ZInboxQuery.safeParse({ kind: one(sp.kind), unread: one(sp.unread), limit: one(sp.limit), offset: one(sp.offset) });
  const q = parsed.success ? parsed.data : { limit: 50, offset: 0 };
  const list = await listInboxItems(db(), { organizationId: user.organizationId, query: q });
  const canWrite = user.can("obligations:write");
  const params = { ...(q.kind ? { kind: q.kind } : {}), ...(q.unread ? { unread: q.unread } : {}) };
  const href = (p: Record<string, string>) => {
    const s = new URLSearchParams(p).toString();
    return s ? `/dashboard/inbox?${s}` : "/dashboard/inbox";
  };
  const filterLink = (label: string, p: Record<string, string>, current: boolean) => (
    <Link
      key={label}
      href={href(p)}
      aria-current={current ? "page" : undefined}
      className={`whitespace-nowrap rounded-full px-3 py-1.5 text-sm ring-1 ring-inset ${current ? "bg-brand-50 font-medium text-brand-900 ring-brand-200" : "text-slate-700 ring-slate-300 hover:bg-slate-50"}`}
    >
      {label}
    </Link>
  );
  const unreadOnly = q.unread === "true";
  const withUnread: Record<string, string> = unreadOnly ? { unread: "true" } : {};

  return (
    <div className="space-y-6">
      <PageHeader title="Inbox" description="What payers did on their hosted pages: messages, reported payments, disputes, promises and uploads." />
      <div className="space-y-2">
        <nav aria-label="Filter by kind" className="flex flex-wrap gap-2">
          {filterLink("All", withUnread, !q.kind)}
          {INBOX_KIND_VALUES.map((k) => filterLink(FILTER_LABELS[k], { kind: k, ...withUnread }, q.kind === k))}
        </nav>
        <nav aria-label="Filter by read state" className="flex flex-wrap gap-2">
          {filterLink("Unread and read", q.kind ? { kind: q.kind } : {}, !unreadOnly)}
          {filterLink("Unread only", { ...(q.kind ? { kind: q.kind } : {}), unread: "true" }, unreadOnly)}
        </nav>
      </div>
      <div>
        {list.items.length === 0 ? (
          <Empty>{q.offset > 0 ? "Nothing on this page." : unreadOnly ? "Nothing unread." : "Nothing here yet."}</Empty>
        ) : (
          <ul className={`${card} divide-y divide-slate-100`} aria-label="Inbox items">
            {list.items.map((i) => {
              const unread = i.read_at === null;
              const title = `${KIND_LABELS[i.kind]} from ${i.obligation.debtor_name || "the payer"}`;
              return (
                <li
                  key={i.id}
                  data-testid="inbox-item"
                  data-kind={i.kind}
                  data-unread={unread ? "true" : "false"}
                  className={`grid grid-cols-[minmax(0,1fr)] gap-x-3 gap-y-2 px-4 py-3 sm:grid-cols-[minmax(0,1fr)_auto] ${unread ? "bg-brand-50/40" : ""}`}
                >
                  <div className="min-w-0">
                    <p className="flex flex-wrap items-center gap-2">
                      {unread && <Pill tone="sky">Unread</Pill>}
                      <span className={unread ? "font-semibold" : "font-medium"}>{title}</span>
                    </p>
                    <p className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-800">{what(i, locale)}</p>
                    <p className="mt-1 text-sm text-slate-600">
                      <Link href={`/dashboard/obligations/${i.obligation.id}`} className={`${link} underline`}>
                        {i.obligation.invoice_number || i.obligation.label || "Obligation"} · {money(i.obligation.amount_minor, i.obligation.currency, locale)}
                      </Link>{" "}
                      · <time dateTime={i.created_at}>{formatTimestamp(i.created_at, locale)}</time>
                    </p>
                  </div>
                  <div className="sm:text-right">{unread && canWrite && <MarkReadButton itemId={i.id} label={title} />}</div>
                </li>
              );
            })}
          </ul>
        )}
        <Pagination basePath="/dashboard/inbox" limit={q.limit} offset={q.offset} shown={list.items.length} params={params} />
      </div>
    </div>
  );
}
