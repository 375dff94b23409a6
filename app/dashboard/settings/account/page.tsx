import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { ADMINISTRATION } from "@/lib/auth/permissions";
import { can } from "@/lib/dashboard/permissions";
import { requestLocale } from "@/lib/dashboard/locale";
import { formatTimestamp } from "@/lib/dashboard/format";
import { listOwnSessions } from "@/lib/administration/list-own-sessions";
import { Section } from "@/components/ui/section";
import { SettingsNav } from "@/components/settings/settings-nav";
import { PasswordForm } from "@/components/settings/password-form";
import { EndOtherSessionsButton } from "@/components/settings/end-other-sessions-button";

export const metadata: Metadata = { title: "Your account" };

// A short, readable name for a user agent string (the full string is in the title).
function browserOf(ua: string): string {
  if (!ua) return "Unknown browser";
  const name = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox" : /Chrom(e|ium)\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "Browser";
  const os = /Windows/.test(ua)
    ? "Windows"
    : /Android/.test(ua)
      ? "Android"
      : /iPhone|iPad/.test(ua)
        ? "iOS"
        : /Mac OS X/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return os ? `${name} on ${os}` : name;
}

export default async function AccountPage() {
  const user = await requireUser();
  const locale = await requestLocale();
  const { items } = await listOwnSessions(db(), { organizationId: user.organizationId, userId: user.userId, sessionId: user.sessionId });
  const others = items.filter((s) => !s.current).length;
  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight">Your account</h1>
        <SettingsNav admin={can(user.role, ADMINISTRATION)} current="account" />
        <p className="break-all text-sm text-slate-600">
          Signed in as {user.email} ({user.role}).
        </p>
      </div>
      <Section title="Password" id="password">
        <PasswordForm email={user.email} />
      </Section>
      <Section title="Sessions" id="sessions" description="Browsers signed in to your account.">
        <ul className="mb-4 divide-y divide-slate-100">
          {items.map((s) => (
            <li key={s.id} className="py-2.5 text-sm">
              <p className="font-medium text-slate-900" title={s.user_agent}>
                {browserOf(s.user_agent)}
                {s.current && <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900">This browser</span>}
              </p>
              <p className="text-xs text-slate-600">
                {s.method === "identity_provider" ? "Single sign-on" : "Password"} · signed in{" "}
                <time dateTime={s.created_at}>{formatTimestamp(s.created_at, locale)}</time>
                {s.last_seen_at && (
                  <>
                    {" · last seen "}
                    <time dateTime={s.last_seen_at}>{formatTimestamp(s.last_seen_at, locale)}</time>
                  </>
                )}
              </p>
            </li>
          ))}
        </ul>
        {others > 0 ? <EndOtherSessionsButton others={others} /> : <p className="text-sm text-slate-600">No other sessions.</p>}
      </Section>
    </div>
  );
}
