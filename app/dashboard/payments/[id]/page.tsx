import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { orNotFound } from "@/lib/dashboard/or-not-found";
import { getPayment } from "@/lib/payments/get-payment";
import { listOpenObligations } from "@/lib/obligations/list-open-obligations";
import { requestLocale } from "@/lib/dashboard/locale";
import { DISMISSAL_LABELS, formatDay, money } from "@/lib/dashboard/format";
import { ReadOnlyNotice, Section } from "@/components/ui/section";
import { AllocateForm } from "@/components/payments/allocate-form";
import { PageHeader } from "@/components/ui/page-header";
import { btn, field } from "@/components/ui/styles";
import { AllocationsSection, PaymentFigures } from "@/components/payments/payment-sections";
import { DismissPaymentButton, RestorePaymentButton } from "@/components/payments/dismiss-actions";
import { listObligationVersions } from "@/lib/obligations/list-obligation-versions";

export const metadata: Metadata = { title: "Payment" };

export default async function PaymentPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireUser({ permission: "payments:read" });
  const { id } = await params;
  const locale = await requestLocale();
  const p = await orNotFound(getPayment(db(), { organizationId: user.organizationId, paymentId: id }));
  const canWrite = user.can("payments:write");
  const canAllocate = canWrite && p.unallocated_minor !== "0" && p.status !== "dismissed";
  const live = p.allocations.filter((a) => !a.reversed_at).map((a) => a.obligation_id);
  const versions = canWrite ? await listObligationVersions(db(), { organizationId: user.organizationId, ids: [...new Set(live)] }) : undefined;
  const sp = await searchParams;
  const find = typeof sp.find === "string" ? sp.find.slice(0, 200) : "";
  const open = canAllocate ? await listOpenObligations(db(), { organizationId: user.organizationId, currency: p.currency, search: find, limit: 50 }) : [];
  const m = (minor: string) => money(minor, p.currency, locale);

  return (
    <div className="space-y-6">
      <PageHeader
        back={{ href: "/dashboard/payments", label: "Payments" }}
        title={`${m(p.amount_minor)} ${p.payer_name ? `from ${p.payer_name}` : ""}`}
        description={
          <>
            Received {formatDay(p.received_on, locale)}
            {p.reference ? ` · ${p.reference}` : ""}
            {p.external_reference ? ` · ${p.external_reference.namespace}/${p.external_reference.id}` : ""}
          </>
        }
      />
      {!user.can("payments:write") && <ReadOnlyNotice />}

      <PaymentFigures payment={p} locale={locale} />

      {p.dismissal ? (
        <Section title="Set aside" id="dismissal" description="Not a receivable: this payment is out of the list of payments to allocate.">
          <div className="space-y-3">
            <p className="text-sm">
              {DISMISSAL_LABELS[p.dismissal.reason] ?? p.dismissal.reason}
              {p.dismissal.note ? ` · ${p.dismissal.note}` : ""} · {formatDay(p.dismissal.dismissed_at.slice(0, 10), locale)}
            </p>
            {canWrite && <RestorePaymentButton paymentId={p.id} />}
          </div>
        </Section>
      ) : (
        canWrite &&
        p.allocated_minor === "0" && (
          <div>
            <DismissPaymentButton paymentId={p.id} who={p.payer_name || p.reference || "this payment"} />
          </div>
        )
      )}

      {canAllocate && (
        <Section title="Allocate" id="allocate" description="Accept this payment as evidence for an obligation; its allocated amount and status follow.">
          <form method="get" aria-label="Find an obligation" className="mb-4 flex flex-wrap items-end gap-2">
            <div className="min-w-0 grow">
              <label htmlFor="find-obligation" className="block text-sm font-medium text-slate-800">
                Find by reference, invoice number, payer or amount
              </label>
              <input id="find-obligation" name="find" defaultValue={find} className={field.input} />
            </div>
            <button type="submit" className={btn.secondary}>
              Find
            </button>
          </form>
          {find && open.length === 0 && <p className="mb-2 text-sm text-slate-600">No open obligation matches &ldquo;{find}&rdquo;.</p>}
          <AllocateForm
            paymentId={p.id}
            currency={p.currency}
            unallocatedMinor={p.unallocated_minor}
            options={open.map((o) => ({
              id: o.id,
              version: o.version,
              outstanding_minor: o.outstanding_minor,
              label: `${o.counterparty || o.reference} · ${o.invoice_number} · ${m(o.outstanding_minor)} outstanding`,
            }))}
          />
        </Section>
      )}

      <AllocationsSection payment={p} locale={locale} showTimes versions={versions} />

      {p.note && (
        <Section title="Note" id="note">
          <p className="whitespace-pre-wrap break-words text-sm">{p.note}</p>
        </Section>
      )}
    </div>
  );
}
