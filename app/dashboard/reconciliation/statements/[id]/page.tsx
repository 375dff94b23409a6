import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { orNotFound } from "@/lib/dashboard/or-not-found";
import { requestLocale } from "@/lib/dashboard/locale";
import { formatDay, formatTimestamp, money } from "@/lib/dashboard/format";
import { getBankStatement } from "@/lib/reconciliation/get-bank-statement";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import { Pill } from "@/components/ui/status-badge";
import { link } from "@/components/ui/styles";
import { Figures } from "@/components/ui/figures";

export const metadata: Metadata = { title: "Bank statement" };

type Item = Awaited<ReturnType<typeof getBankStatement>>["items"][number];

// What became of a transaction, as it stands now: a new payment (allocated automatically at
// import, allocated since, partly allocated, waiting with suggestions, or unmatched), a
// duplicate of an earlier one, or nothing (a currency the service does not hold).
function Outcome({ item }: { item: Item }) {
  if (item.duplicate_of) return <Pill tone="slate">Duplicate</Pill>;
  if (!item.payment_id) return <Pill tone="rose">Not imported</Pill>;
  if (item.match === "auto_allocated") return <Pill tone="emerald">Allocated automatically</Pill>;
  if (item.payment_state === "allocated") return <Pill tone="emerald">Allocated</Pill>;
  if (item.payment_state === "partially_allocated") return <Pill tone="amber">Partly allocated</Pill>;
  if (item.match === "suggested") return <Pill tone="sky">Waiting · suggested</Pill>;
  return <Pill tone="amber">Waiting · unmatched</Pill>;
}

type Balance = Awaited<ReturnType<typeof getBankStatement>>["balances"]["opening"];

export default async function StatementPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser({ permission: "payments:read" });
  const { id } = await params;
  const locale = await requestLocale();
  const s = await orNotFound(getBankStatement(db(), { organizationId: user.organizationId, id }));
  const balance = (b: Balance) => {
    if (!b) return "Not in the file";
    const currency = b.currency || s.account.currency;
    const amount = /^[A-Z]{3}$/.test(currency) ? money(b.amount_minor, currency, locale) : b.amount_minor;
    return `${b.side === "debit" ? "−" : ""}${amount}${b.on ? ` on ${formatDay(b.on, locale)}` : ""}`;
  };
  const summary: [string, string | number][] = [
    ["Opening balance", balance(s.balances.opening)],
    ["Closing balance", balance(s.balances.closing)],
    ["Transactions", s.entries],
    ["Credits", s.credits],
    ["Debits", s.debits],
    ["Payments created", s.payments_created],
    ["Duplicates skipped", s.duplicates_skipped],
    ["Allocated automatically", s.auto_allocated],
    ["With suggestions", s.suggested],
  ];
  return (
    <div className="space-y-6">
      <PageHeader
        back={{ href: "/dashboard/reconciliation/statements", label: "Bank statements" }}
        title={`${s.format} statement`}
        description={
          <>
            {s.account.iban || s.account.identifier || "Account not named"}
            {s.period.from ? ` · ${formatDay(s.period.from, locale)} to ${formatDay(s.period.to, locale)}` : ""} · imported{" "}
            <time dateTime={s.created_at}>{formatTimestamp(s.created_at, locale)}</time>
          </>
        }
      />
      <Figures items={summary} className="grid grid-cols-2 gap-3 sm:grid-cols-4" />
      <Section title="Transactions" id="items">
        <ol className="divide-y divide-slate-100" aria-label="Transactions">
          {s.items.map((i) => {
            const paymentId = i.payment_id ?? i.duplicate_of;
            const label = `${i.direction === "incoming" ? "From" : "To"} ${i.counterparty_name || "unnamed counterparty"} · ${money(i.amount_minor, i.currency, locale)}`;
            return (
              <li key={i.index} className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-1 py-2.5">
                <div className="min-w-0">
                  <p className="break-words font-medium">
                    {paymentId ? (
                      <Link href={`/dashboard/reconciliation/payments/${paymentId}`} className={link}>
                        {label}
                      </Link>
                    ) : (
                      label
                    )}
                  </p>
                  <p className="break-words text-sm text-slate-600">
                    {i.booked_on ? formatDay(i.booked_on, locale) : "No date"}
                    {i.remittance ? ` · ${i.remittance}` : ""}
                    {i.bank_reference ? ` · bank reference ${i.bank_reference}` : ""}
                  </p>
                </div>
                <div className="text-right">
                  <Outcome item={i} />
                </div>
              </li>
            );
          })}
        </ol>
      </Section>
    </div>
  );
}
