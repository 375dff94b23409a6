import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { getCounterparty } from "@/lib/counterparties/get-counterparty";
import { listCounterpartyPayments } from "@/lib/counterparties/list-counterparty-payments";
import { listCounterpartyDisputes } from "@/lib/counterparties/list-counterparty-disputes";
import { getAccountLink } from "@/lib/account-links/get-account-link";
import { requestLocale } from "@/lib/dashboard/locale";
import { formatDay, money } from "@/lib/dashboard/format";
import { Empty, Section } from "@/components/ui/section";
import { Pill } from "@/components/ui/status-badge";
import { card, link } from "@/components/ui/styles";
import { PageHeader } from "@/components/ui/page-header";
import { AccountLinkPanel } from "@/components/counterparties/account-link-panel";
import { CounterpartyDisputes } from "@/components/counterparties/disputes-promises";

export const metadata: Metadata = { title: "Counterparty" };

const orNotFound = async <T,>(p: Promise<T>): Promise<T | null> => {
  try {
    return await p;
  } catch (e) {
    if (e instanceof AppError && e.code === "not_found") return null;
    throw e;
  }
};

// One counterparty: open items, totals by currency, its disputes and promises, its payments
// and its account link.
export default async function CounterpartyPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser({ permission: "obligations:read" });
  const locale = await requestLocale();
  const { id } = await params;
  if (!isUuid(id)) notFound();
  const organizationId = user.organizationId;
  const cp = await orNotFound(getCounterparty(db(), { organizationId, counterpartyId: id }));
  if (!cp) notFound();
  const payments = user.can("payments:read") ? await listCounterpartyPayments(db(), { organizationId, counterpartyId: cp.id }) : [];
  const disputes = await listCounterpartyDisputes(db(), { organizationId, counterpartyId: cp.id });
  const open = {
    disputed: new Set(disputes.filter((d) => d.dispute?.status === "open").map((d) => d.id)),
    promised: new Set(disputes.filter((d) => d.promise?.status === "open").map((d) => d.id)),
  };
  const canLink = user.can("obligations:write");
  const linkState = canLink ? await orNotFound(getAccountLink(db(), { organizationId, counterpartyId: cp.id })) : null;
  const totals = (xs: { currency: string; amount_minor: string }[]) => xs.map((x) => money(x.amount_minor, x.currency, locale)).join(" · ");

  return (
    <div className="space-y-6">
      <PageHeader
        title={cp.name || cp.email || "Counterparty"}
        description={cp.email ?? "No email on its obligations"}
        back={{ href: "/dashboard/counterparties", label: "Counterparties" }}
      />
      <dl className={`${card} grid gap-3 p-4 sm:grid-cols-3`}>
        <div>
          <dt className="text-sm text-slate-600">Open obligations</dt>
          <dd className="text-lg font-semibold tabular-nums">{cp.open_count}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">Outstanding</dt>
          <dd className="text-lg font-semibold tabular-nums">{cp.outstanding.length ? totals(cp.outstanding) : "Nothing"}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">Overdue</dt>
          <dd className="text-lg font-semibold tabular-nums">{cp.overdue.length ? totals(cp.overdue) : "Nothing"}</dd>
        </div>
      </dl>

      {canLink && (
        <Section title="Account link" id="account-link" description="One link for the payer: every open obligation, its actions, and one transfer for several.">
          <AccountLinkPanel
            counterpartyId={cp.id}
            state={linkState ? { expiresAt: linkState.expires_at, revoked: linkState.revoked_at !== null, createdAt: linkState.created_at } : null}
          />
        </Section>
      )}

      <Section title="Open obligations" id="open">
        {cp.obligations.length === 0 ? (
          <Empty>Nothing is open.</Empty>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Open obligations">
            {cp.obligations.map((o) => (
              <li key={o.id} className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 py-2">
                <div className="min-w-0">
                  <Link href={`/dashboard/obligations/${o.id}`} className={`${link} break-words font-medium`}>
                    {o.invoice_number || o.reference}
                  </Link>
                  <p className="text-sm text-slate-600">Due {formatDay(o.deadline, locale)}</p>
                </div>
                <div className="text-right text-sm tabular-nums">
                  <p>{money(o.outstanding_minor, o.currency, locale)} open</p>
                  {o.overdue && <Pill tone="amber">Overdue</Pill>}
                  {open.disputed.has(o.id) && <Pill tone="rose">Disputed</Pill>}
                  {open.promised.has(o.id) && <Pill tone="sky">Payment promised</Pill>}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>

      {disputes.length > 0 && (
        <Section
          title="Disputes and promises"
          id="disputes"
          description="What the payer raised or promised on its pages; resolve a dispute on its obligation's page."
        >
          <CounterpartyDisputes items={disputes} locale={locale} />
        </Section>
      )}

      {user.can("payments:read") && (
        <Section title="Payments received" id="payments">
          {payments.length === 0 ? (
            <Empty>No payment allocated to its obligations yet.</Empty>
          ) : (
            <ul className="divide-y divide-slate-100" aria-label="Payments received">
              {payments.map((p) => (
                <li key={p.id} className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 py-2">
                  <div className="min-w-0">
                    <Link href={`/dashboard/payments/${p.id}`} className={`${link} break-words font-medium`}>
                      {p.payer_name || p.reference || "Payment"} · {money(p.amount_minor, p.currency, locale)}
                    </Link>
                    <p className="text-sm text-slate-600">Received {formatDay(p.received_on, locale)}</p>
                  </div>
                  <p className="text-right text-sm tabular-nums">{money(p.settled_minor, p.currency, locale)} settled</p>
                </li>
              ))}
            </ul>
          )}
        </Section>
      )}
    </div>
  );
}
