import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { listObligations } from "@/lib/obligations/list-obligations";
import { listBusinessContexts } from "@/lib/contexts/list-business-contexts";
import { addDays } from "@/lib/obligations/terms";
import { todayUtc } from "@/lib/schemas/common";
import { requestLocale } from "@/lib/dashboard/locale";
import { NewObligationForm } from "@/components/obligations/new-obligation-form";
import { PageHeader } from "@/components/ui/page-header";

export const metadata: Metadata = { title: "New obligation" };

export default async function NewObligationPage() {
  const user = await requireUser({ permission: "obligations:write" });
  const locale = await requestLocale();
  // the currency of the latest obligation is the likeliest one for the next
  const latest = await listObligations(db(), { organizationId: user.organizationId, query: { limit: 1, offset: 0 } });
  const contexts = user.can("contexts:read")
    ? (
        await listBusinessContexts(db(), {
          organizationId: user.organizationId,
          query: { limit: 100, offset: 0, context_type: "", context_kind: "", search: "" },
        })
      ).items
    : [];
  return (
    <div className="max-w-3xl">
      <PageHeader className="mb-6" back={{ href: "/dashboard/obligations", label: "Obligations" }} title="New obligation" />
      <NewObligationForm
        defaultDeadline={addDays(todayUtc(), 30)}
        defaultCurrency={latest.items[0]?.parse().currency ?? "EUR"}
        locale={locale}
        contexts={contexts.map((c) => ({ id: c.id, name: c.name, type_label: c.type_label, reference: c.reference }))}
      />
    </div>
  );
}
