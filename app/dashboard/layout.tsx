import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db/client";
import { describeSession } from "@/lib/auth/describe-session";
import { OrganizationSwitcher } from "@/components/dashboard/organization-switcher";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { MainNav, type NavItem } from "@/components/dashboard/nav";
import type { Permission } from "@/lib/auth/permissions";
import { countUnreadInboxItems } from "@/lib/inbox/count-unread-inbox-items";

export const dynamic = "force-dynamic";

// Sections a role cannot read are left out of the navigation (members have no webhooks).
const NAV: (NavItem & { permission: Permission })[] = [
  { href: "/dashboard", label: "Overview", permission: "obligations:read" },
  { href: "/dashboard/obligations", label: "Obligations", permission: "obligations:read" },
  { href: "/dashboard/inbox", label: "Inbox", permission: "obligations:read" },
  { href: "/dashboard/counterparties", label: "Counterparties", permission: "obligations:read" },
  { href: "/dashboard/imports", label: "Import", permission: "obligations:write" },
  { href: "/dashboard/payments", label: "Payments", permission: "payments:read" },
  { href: "/dashboard/reconciliation", label: "Reconciliation", permission: "payments:read" },
  { href: "/dashboard/contexts", label: "Contexts", permission: "contexts:read" },
  { href: "/dashboard/webhooks", label: "Webhooks", permission: "webhooks:read" },
  // Every role has its own account settings; administration lives there for owners and admins.
  { href: "/dashboard/settings", label: "Settings", permission: "obligations:read" },
];

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  const { organizations } = await describeSession(db(), { principal: user });
  // The inbox's unread count: one capped count over the partial index of unread items.
  const unread = user.can("obligations:read") ? await countUnreadInboxItems(db(), { organizationId: user.organizationId }) : 0;
  return (
    <div className="min-h-screen">
      <a href="#content" className="sr-only rounded-md bg-white px-3 py-2 focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3">
          <div className="min-w-0">
            <p className="text-xs font-medium uppercase tracking-wide text-slate-600">Obligations</p>
            {organizations.length > 1 ? (
              <OrganizationSwitcher current={user.organizationId} organizations={organizations.map(({ id, name }) => ({ id, name }))} />
            ) : (
              <p className="truncate font-semibold">{user.organizationName}</p>
            )}
          </div>
          <div className="flex items-center gap-2 text-sm text-slate-700 sm:order-last">
            <span className="min-w-0 max-w-[9rem] truncate sm:max-w-[14rem]" title={user.email}>
              {user.name || user.email}
            </span>
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800">{user.role}</span>
            <SignOutButton />
          </div>
          <div className="w-full sm:w-auto sm:flex-1">
            <MainNav
              items={NAV.filter((n) => user.can(n.permission)).map(({ href, label }) => ({
                href,
                label,
                ...(href === "/dashboard/inbox" ? { count: unread } : {}),
              }))}
            />
          </div>
        </div>
      </header>
      <main id="content" className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
        {children}
      </main>
    </div>
  );
}
