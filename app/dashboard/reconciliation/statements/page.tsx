import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { ZPageQuery } from "@/lib/schemas/common";
import { requestLocale } from "@/lib/dashboard/locale";
import { listBankStatements } from "@/lib/reconciliation/list-bank-statements";
import { PageHeader } from "@/components/ui/page-header";
import { Pagination } from "@/components/ui/pagination";
import { card } from "@/components/ui/styles";
import { StatementList } from "@/components/reconciliation/statement-list";

export const metadata: Metadata = { title: "Bank statements" };

export default async function StatementsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser({ permission: "payments:read" });
  const locale = await requestLocale();
  const sp = await searchParams;
  const parsed = ZPageQuery.safeParse({ limit: sp.limit ?? undefined, offset: sp.offset ?? undefined });
  const page = parsed.success ? parsed.data : { limit: 50, offset: 0 };
  const list = await listBankStatements(db(), { organizationId: user.organizationId, ...page });
  return (
    <div className="space-y-6">
      <PageHeader back={{ href: "/dashboard/reconciliation", label: "Reconciliation" }} title="Bank statements" description="Every import, newest first." />
      <div className={`${card} px-4`}>
        <StatementList items={list.items} locale={locale} />
      </div>
      <Pagination basePath="/dashboard/reconciliation/statements" limit={page.limit} offset={page.offset} shown={list.items.length} />
    </div>
  );
}
