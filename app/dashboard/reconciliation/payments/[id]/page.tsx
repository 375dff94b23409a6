import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { orNotFound } from "@/lib/dashboard/or-not-found";
import { getPayment } from "@/lib/payments/get-payment";
import { listPaymentSuggestions } from "@/lib/reconciliation/list-payment-suggestions";
import { listAllocatableObligations } from "@/lib/reconciliation/list-allocatable-obligations";
import { getReconciliationSettings } from "@/lib/reconciliation/get-reconciliation-settings";
import { shortPayment } from "@/lib/dashboard/short-payment";
import { requestLocale } from "@/lib/dashboard/locale";
import { formatDay, money } from "@/lib/dashboard/format";
import { Empty, ReadOnlyNotice, Section } from "@/components/ui/section";
import { PageHeader } from "@/components/ui/page-header";
import { card, link } from "@/components/ui/styles";
import { AcceptSuggestionButton } from "@/components/reconciliation/accept-suggestion-button";
import { RejectSuggestionButton } from "@/components/reconciliation/reject-suggestion-button";
import { SuggestionView, allocationWords } from "@/components/reconciliation/suggestion-view";
import { SplitPaymentForm } from "@/components/reconciliation/split-payment-form";
import { Announcer } from "@/components/reconciliation/announcer";
import { AllocationsSection, PaymentFigures } from "@/components/payments/payment-sections";

export const metadata: Metadata = { title: "Reconcile a payment" };

// One payment: every current suggestion with its evidence (accept any of them), and the
// split by hand over the open obligations on the payment's side and in its currency.
export default async function ReconcilePaymentPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser({ permission: "payments:read" });
  const { id } = await params;
  const locale = await requestLocale();
  const p = await orNotFound(getPayment(db(), { organizationId: user.organizationId, paymentId: id }));
  const canWrite = user.can("payments:write");
  const open = p.unallocated_minor !== "0";
  const suggestions = open ? (await listPaymentSuggestions(db(), { organizationId: user.organizationId, paymentId: p.id })).items : [];
  const settings = await getReconciliationSettings(db(), { organizationId: user.organizationId });
  const obligations =
    canWrite && open
      ? await listAllocatableObligations(db(), {
          organizationId: user.organizationId,
          currency: p.currency,
          direction: p.direction,
          preferIds: [...new Set(suggestions.flatMap((s) => s.allocations.map((a) => a.obligation_id)))],
        })
      : [];
  const m = (minor: string) => money(minor, p.currency, locale);
  const who = p.payer_name || p.reference || "Payment";

  return (
    <div className="space-y-6">
      <PageHeader
        back={{ href: "/dashboard/reconciliation", label: "Reconciliation" }}
        title={`${m(p.amount_minor)} ${p.direction === "incoming" ? "from" : "to"} ${who}`}
        description={
          <>
            {p.direction === "incoming" ? "Money in, received" : "Money out, paid"} {formatDay(p.received_on, locale)}
            {p.reference ? ` · ${p.reference}` : ""} ·{" "}
            <Link href={`/dashboard/payments/${p.id}`} className={`${link} underline`}>
              payment details
            </Link>
          </>
        }
      />
      {!canWrite && <ReadOnlyNotice />}

      <PaymentFigures payment={p} locale={locale} />

      {open && (
        <Section title="Suggestions" id="suggestions" description="Best first. Accepting one records all of its allocations at once, or none.">
          <Announcer>
            {suggestions.length === 0 ? (
              <Empty>No suggestion: no open obligation matches this payment&apos;s references, amount or payer.</Empty>
            ) : (
              <ol className="space-y-3" aria-label="Suggestions">
                {suggestions.map((s) => (
                  <li key={s.id} className={`${card} space-y-3 p-3`}>
                    <SuggestionView s={s} currency={p.currency} locale={locale} />
                    {canWrite && (
                      <div className="flex flex-wrap items-start gap-3">
                        <AcceptSuggestionButton
                          key={s.id}
                          paymentId={p.id}
                          suggestionId={s.id}
                          description={allocationWords(s, p.currency, locale)}
                          {...shortPayment(s, settings, p.currency, locale)}
                        />
                        <RejectSuggestionButton paymentId={p.id} suggestionId={s.id} description={allocationWords(s, p.currency, locale)} />
                      </div>
                    )}
                  </li>
                ))}
              </ol>
            )}
          </Announcer>
        </Section>
      )}

      {open && canWrite && (
        <Section
          title="Split by hand"
          id="split"
          description={`Enter what goes to each obligation (exact amounts in ${p.currency}). What is left of the payment and each obligation's outstanding amount follow as you type.`}
        >
          <SplitPaymentForm paymentId={p.id} currency={p.currency} unallocatedMinor={p.unallocated_minor} obligations={obligations} locale={locale} />
        </Section>
      )}

      <AllocationsSection payment={p} locale={locale} />
    </div>
  );
}
