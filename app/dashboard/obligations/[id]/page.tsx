import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { orNotFound } from "@/lib/dashboard/or-not-found";
import { getObligationDetail } from "@/lib/obligations/get-obligation-detail";
import { todayUtc } from "@/lib/schemas/common";
import { requestLocale } from "@/lib/dashboard/locale";
import { daysBetween } from "@/lib/dashboard/format";
import { listObligationAllocations } from "@/lib/payments/list-obligation-allocations";
import { listBusinessContexts } from "@/lib/contexts/list-business-contexts";
import { ReadOnlyNotice } from "@/components/ui/section";
import { ObligationProvider } from "@/components/obligations/obligation-context";
import type { ObligationDetail } from "@/components/obligations/detail/types";
import { ObligationHeader } from "@/components/obligations/detail/header";
import { LinkSections } from "@/components/obligations/detail/link-sections";
import { TermsSection } from "@/components/obligations/detail/terms-section";
import { AllocationsSection } from "@/components/obligations/detail/allocations-section";
import { ConditionsSection } from "@/components/obligations/detail/conditions-section";
import { MessagesSection } from "@/components/obligations/detail/messages-section";
import { DisputePromiseSection } from "@/components/obligations/detail/dispute-promise-section";
import { DocumentsSection } from "@/components/obligations/detail/documents-section";
import { AuditSection } from "@/components/obligations/detail/audit-section";
import { DetailsSection } from "@/components/obligations/detail/details-section";
import { ContextsSection } from "@/components/obligations/detail/contexts-section";
import { CorrectionsSection } from "@/components/obligations/detail/corrections-section";
import { RemindersSection } from "@/components/obligations/detail/reminders-section";
import { listObligationReminders } from "@/lib/reminders/list-obligation-reminders";

export const metadata: Metadata = { title: "Obligation" };

// One obligation: this page reads what the sections need and lays them out; each section
// is its own component (components/obligations/detail/), and the forms inside them are
// client islands that share the obligation's version (ObligationProvider).
export default async function ObligationPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser({ permission: "obligations:read" });
  const { id } = await params;
  const locale = await requestLocale();
  const canWrite = user.can("obligations:write");
  const o: ObligationDetail = await orNotFound(getObligationDetail(db(), { organizationId: user.organizationId, obligationId: id, revealLink: canWrite }));
  const today = todayUtc();
  const cp = o.organization_role === "creditor" ? o.debtor : o.creditor;
  const overdueDays = o.status !== "RECONCILED" && o.deadline < today ? daysBetween(o.deadline, today) : 0;
  const expired = Date.parse(o.payment_request.expires_at) <= Date.now();
  const allocations = user.can("payments:read") ? await listObligationAllocations(db(), { organizationId: user.organizationId, obligationId: o.id }) : [];
  const reminders = await listObligationReminders(db(), { organizationId: user.organizationId, obligationId: o.id });
  const linked = new Set(o.contexts.map((c) => c.id));
  const contextOptions =
    canWrite && user.can("contexts:read")
      ? (
          await listBusinessContexts(db(), {
            organizationId: user.organizationId,
            query: { limit: 100, offset: 0, context_type: "", context_kind: "", search: "" },
          })
        ).items
          .filter((c) => !linked.has(c.id))
          .map((c) => ({ id: c.id, label: `${c.name} (${c.type_label}${c.reference ? ` ${c.reference}` : ""})` }))
      : [];
  const section = { o, locale, canWrite };

  return (
    <ObligationProvider obligationId={o.id} version={o.version} canWrite={canWrite}>
      <div className="space-y-6">
        <ObligationHeader o={o} locale={locale} counterpartyName={cp.name} overdueDays={overdueDays} />
        {!canWrite && <ReadOnlyNotice />}
        <div className="grid items-start gap-6 lg:grid-cols-3 lg:grid-rows-[auto_1fr]">
          {/* small screens: the link first, then the record, then the details */}
          <div className="min-w-0 space-y-6 lg:col-start-3 lg:row-start-1">
            <LinkSections o={o} locale={locale} counterpartyEmail={cp.email ?? ""} expired={expired} canWrite={canWrite} />
          </div>
          <div className="min-w-0 space-y-6 lg:col-span-2 lg:col-start-1 lg:row-span-2 lg:row-start-1">
            <DisputePromiseSection {...section} />
            <TermsSection o={o} locale={locale} today={today} />
            {user.can("payments:read") && <AllocationsSection o={o} locale={locale} allocations={allocations} canRecord={user.can("payments:write")} />}
            <CorrectionsSection {...section} />
            <ConditionsSection {...section} today={today} />
            <MessagesSection {...section} />
            <DocumentsSection {...section} />
            <AuditSection o={o} locale={locale} />
          </div>
          <div className="min-w-0 space-y-6 lg:col-start-3 lg:row-start-2">
            <DetailsSection {...section} overdueDays={overdueDays} />
            <RemindersSection reminders={reminders} locale={locale} />
            <ContextsSection o={o} locale={locale} options={contextOptions} />
          </div>
        </div>
      </div>
    </ObligationProvider>
  );
}
