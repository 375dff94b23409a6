import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { orNotFound } from "@/lib/dashboard/or-not-found";
import { getBusinessContext } from "@/lib/contexts/get-business-context";
import { listBusinessContexts } from "@/lib/contexts/list-business-contexts";
import { requestLocale } from "@/lib/dashboard/locale";
import { money, statusLabel } from "@/lib/dashboard/format";
import { Empty, Section } from "@/components/ui/section";
import { StatusBadge } from "@/components/ui/status-badge";
import { NewRelationshipForm } from "@/components/contexts/new-relationship-form";
import { PageHeader } from "@/components/ui/page-header";
import { link } from "@/components/ui/styles";

export const metadata: Metadata = { title: "Business context" };

export default async function ContextPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser({ permission: "contexts:read" });
  const { id } = await params;
  const locale = await requestLocale();
  const c = await orNotFound(getBusinessContext(db(), { organizationId: user.organizationId, contextId: id }));
  const canWrite = user.can("contexts:write");
  const others = canWrite
    ? (
        await listBusinessContexts(db(), {
          organizationId: user.organizationId,
          query: { limit: 100, offset: 0, context_type: "", context_kind: "", search: "" },
        })
      ).items.filter((x) => x.id !== c.id)
    : [];

  // outstanding per currency over every linked obligation
  const byCurrency = new Map<string, { amount: bigint; allocated: bigint; attributed: bigint; count: number }>();
  for (const t of c.totals) {
    const cur = byCurrency.get(t.currency) ?? { amount: 0n, allocated: 0n, attributed: 0n, count: 0 };
    cur.amount += BigInt(t.amount_minor);
    cur.allocated += BigInt(t.allocated_minor);
    cur.attributed += BigInt(t.attributed_minor);
    cur.count += t.obligation_count;
    byCurrency.set(t.currency, cur);
  }

  return (
    <div className="space-y-6">
      <PageHeader
        back={{ href: "/dashboard/contexts", label: "Business contexts" }}
        title={c.name}
        description={
          <>
            {c.type_label} · kind {c.kind}
            {c.reference ? ` · ${c.reference}` : ""}
            {c.external_reference ? ` · ${c.external_reference.namespace}/${c.external_reference.id}` : ""}
          </>
        }
      />

      <Section title="Totals" id="totals" description={`${c.obligation_count} linked ${c.obligation_count === 1 ? "obligation" : "obligations"}`}>
        {byCurrency.size === 0 ? (
          <Empty>No obligations are linked to this context.</Empty>
        ) : (
          <div className="space-y-4">
            <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {[...byCurrency.entries()].map(([cur, t]) => (
                <div key={cur} className="rounded-lg border border-slate-200 p-3">
                  <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">
                    {cur} · {t.count} {t.count === 1 ? "obligation" : "obligations"}
                  </dt>
                  <dd className="mt-1 text-lg font-semibold tabular-nums">{money((t.amount - t.allocated).toString(), cur, locale)} outstanding</dd>
                  <dd className="text-sm text-slate-700">
                    of {money(t.amount.toString(), cur, locale)}; {money(t.allocated.toString(), cur, locale)} allocated
                    {t.attributed > 0n ? `; ${money(t.attributed.toString(), cur, locale)} attributed here` : ""}
                  </dd>
                </div>
              ))}
            </dl>
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Totals by currency and status</caption>
                <thead className="text-xs uppercase tracking-wide text-slate-700">
                  <tr>
                    <th scope="col" className="py-1.5 pr-3 font-medium">
                      Currency
                    </th>
                    <th scope="col" className="py-1.5 pr-3 font-medium">
                      Status
                    </th>
                    <th scope="col" className="py-1.5 pr-3 text-right font-medium">
                      Count
                    </th>
                    <th scope="col" className="py-1.5 pr-3 text-right font-medium">
                      Amount
                    </th>
                    <th scope="col" className="py-1.5 text-right font-medium">
                      Allocated
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {c.totals.map((t) => (
                    <tr key={`${t.currency}-${t.status}`}>
                      <td className="py-1.5 pr-3">{t.currency}</td>
                      <td className="py-1.5 pr-3">{statusLabel(t.status)}</td>
                      <td className="py-1.5 pr-3 text-right tabular-nums">{t.obligation_count}</td>
                      <td className="py-1.5 pr-3 text-right tabular-nums">{money(t.amount_minor, t.currency, locale)}</td>
                      <td className="py-1.5 text-right tabular-nums">{money(t.allocated_minor, t.currency, locale)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        )}
      </Section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section
          title="Obligations"
          id="obligations"
          description={c.obligation_count > c.obligations.length ? `The ${c.obligations.length} most recently linked` : undefined}
        >
          {c.obligations.length === 0 ? (
            <Empty>None linked.</Empty>
          ) : (
            <ul className="divide-y divide-slate-100">
              {c.obligations.map((o) => (
                <li key={o.link_id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
                  <div className="min-w-0">
                    <Link href={`/dashboard/obligations/${o.id}`} className={`${link} font-medium`}>
                      {o.reference}
                    </Link>
                    <p className="text-sm text-slate-600">
                      {o.relationship_type}
                      {o.attributed_minor ? ` · ${money(o.attributed_minor, o.currency, locale)} attributed` : ""}
                    </p>
                  </div>
                  <div className="flex items-center gap-2">
                    <span className="tabular-nums">{money(o.amount_minor, o.currency, locale)}</span>
                    <StatusBadge status={o.status} />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Section>

        <Section title="Relationships" id="relationships" description={`${c.relationship_count} in both directions`}>
          {c.relationships.length === 0 ? (
            <Empty>No relationships yet.</Empty>
          ) : (
            <ul className="divide-y divide-slate-100">
              {c.relationships.map((r) => (
                <li key={r.id} className="py-2.5 text-sm">
                  {r.direction === "outgoing" ? (
                    <>
                      This <span className="font-medium">{r.relationship_type}</span>{" "}
                      <Link href={`/dashboard/contexts/${r.related_context.id}`} className="text-brand-700 underline underline-offset-2">
                        {r.related_context.name}
                      </Link>
                    </>
                  ) : (
                    <>
                      <Link href={`/dashboard/contexts/${r.related_context.id}`} className="text-brand-700 underline underline-offset-2">
                        {r.related_context.name}
                      </Link>{" "}
                      <span className="font-medium">{r.relationship_type}</span> this
                    </>
                  )}
                  <span className="text-slate-600"> · {r.related_context.type_label}</span>
                </li>
              ))}
            </ul>
          )}
          {canWrite && (
            <div className="mt-4 border-t border-slate-100 pt-4">
              <NewRelationshipForm
                contextId={c.id}
                options={others.map((x) => ({ id: x.id, label: `${x.name} (${x.type_label}${x.reference ? ` ${x.reference}` : ""})` }))}
              />
            </div>
          )}
        </Section>
      </div>
    </div>
  );
}
