import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { ADMINISTRATION } from "@/lib/auth/permissions";
import { can } from "@/lib/dashboard/permissions";
import { requestLocale } from "@/lib/dashboard/locale";
import { formatTimestamp } from "@/lib/dashboard/format";
import { listApiKeys } from "@/lib/administration/list-api-keys";
import { Empty, Section } from "@/components/ui/section";
import { NotAllowed, SettingsNav } from "@/components/settings/settings-nav";
import { NewApiKeyForm } from "@/components/settings/new-api-key-form";
import { RevokeKeyButton } from "@/components/settings/revoke-key-button";

export const metadata: Metadata = { title: "API keys" };

export default async function ApiKeysPage() {
  const user = await requireUser();
  if (!can(user.role, ADMINISTRATION)) return <NotAllowed role={user.role} title="API keys" />;
  const locale = await requestLocale();
  const { items } = await listApiKeys(db(), { organizationId: user.organizationId, limit: 100, offset: 0 });
  const active = items.filter((k) => !k.revoked_at);
  const revoked = items.filter((k) => k.revoked_at);
  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight">API keys</h1>
        <SettingsNav admin current="api-keys" />
        <p className="text-sm text-slate-600">Keys let your systems call the API server to server. Each key has only the scopes you give it.</p>
      </div>
      <Section title="Create a key" id="create-key">
        <NewApiKeyForm />
      </Section>
      <Section title="Active keys" id="active-keys">
        {active.length === 0 ? (
          <Empty>No active keys.</Empty>
        ) : (
          <ul className="divide-y divide-slate-100">
            {active.map((k) => (
              <li key={k.id} className="flex flex-wrap items-start justify-between gap-2 py-2.5">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{k.name || "Unnamed key"}</p>
                  <p className="font-mono text-xs text-slate-700">{k.prefix}…</p>
                  <p className="text-xs text-slate-600">
                    Created <time dateTime={k.created_at}>{formatTimestamp(k.created_at, locale)}</time>
                    {" · "}
                    {k.last_used_at ? (
                      <>
                        last used <time dateTime={k.last_used_at}>{formatTimestamp(k.last_used_at, locale)}</time>
                      </>
                    ) : (
                      "never used"
                    )}
                  </p>
                  <p className="mt-1 break-words text-xs text-slate-700">{k.scopes.join(", ")}</p>
                </div>
                <RevokeKeyButton id={k.id} name={k.name || k.prefix} />
              </li>
            ))}
          </ul>
        )}
      </Section>
      {revoked.length > 0 && (
        <Section title="Revoked keys" id="revoked-keys">
          <ul className="divide-y divide-slate-100">
            {revoked.map((k) => (
              <li key={k.id} className="py-2 text-sm text-slate-700">
                <span className="font-medium">{k.name || "Unnamed key"}</span> <span className="font-mono text-xs">{k.prefix}…</span> · revoked{" "}
                <time dateTime={k.revoked_at}>{formatTimestamp(k.revoked_at, locale)}</time>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </div>
  );
}
