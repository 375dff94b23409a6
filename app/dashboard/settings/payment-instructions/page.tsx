import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { ADMINISTRATION } from "@/lib/auth/permissions";
import { can } from "@/lib/dashboard/permissions";
import { NotAllowed, SettingsNav } from "@/components/settings/settings-nav";
import { db } from "@/lib/db/client";
import { CURRENCIES } from "@/lib/schemas/common";
import { listPaymentInstructions } from "@/lib/payment-instructions/list-payment-instructions";
import { groupsOfFour } from "@/lib/payment-instructions/bank-details";
import { Empty, Section } from "@/components/ui/section";
import { DeletePaymentInstructionsButton, PaymentInstructionsForm } from "@/components/payment-instructions/payment-instructions-form";

export const metadata: Metadata = { title: "Payment instructions" };

// Settings: how payers pay, per currency (owners and admins). The hosted payment page shows
// the instructions of the invoice's currency with its RF payment reference.
export default async function PaymentInstructionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  if (!can(user.role, ADMINISTRATION)) return <NotAllowed role={user.role} title="Payment instructions" />;
  const { items } = await listPaymentInstructions(db(), { organizationId: user.organizationId, principal: user });
  const q = (await searchParams).currency;
  const currency = typeof q === "string" && (CURRENCIES as readonly string[]).includes(q) ? q : (items[0]?.currency ?? "EUR");
  const current = items.find((i) => i.currency === currency) ?? null;
  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Payment instructions</h1>
        <div className="mt-3">
          <SettingsNav admin current="payment-instructions" />
        </div>
        <p className="mt-1 text-sm text-slate-600">
          Where payers send money, per currency. The payment page of every invoice shows the details of its currency with its payment reference; for EUR with an
          IBAN also a QR code banking apps scan.
        </p>
      </div>

      <Section title="Currencies" id="currencies">
        {items.length === 0 ? (
          <Empty>No payment instructions yet: payers are asked to contact you.</Empty>
        ) : (
          <ul className="divide-y divide-slate-100">
            {items.map((i) => (
              <li key={i.currency} className="flex flex-wrap items-center justify-between gap-2 py-2.5" data-testid={`pi-${i.currency}`}>
                <div className="min-w-0">
                  <p className="font-medium">
                    {i.currency} · {i.account_holder}
                  </p>
                  <p className="break-all font-mono text-sm text-slate-700">{i.iban ? groupsOfFour(i.iban) : i.account_number}</p>
                </div>
                <span className="flex items-center gap-2">
                  <Link href={`?currency=${i.currency}`} className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
                    Edit {i.currency}
                  </Link>
                  <DeletePaymentInstructionsButton currency={i.currency} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title={`${current ? "Edit" : "Add"} ${currency}`} id="edit">
        <nav aria-label="Currency" className="mb-4 flex flex-wrap gap-1 text-sm">
          {CURRENCIES.map((c) => (
            <Link
              key={c}
              href={`?currency=${c}`}
              aria-current={c === currency ? "page" : undefined}
              className={`rounded-md px-2.5 py-1 ${c === currency ? "bg-brand-50 font-medium text-brand-900" : "text-slate-700 hover:bg-slate-100"}`}
            >
              {c}
            </Link>
          ))}
        </nav>
        <PaymentInstructionsForm key={`${currency}-${current?.updated_at ?? "new"}`} currency={currency} current={current} />
      </Section>
    </div>
  );
}
