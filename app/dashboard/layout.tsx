import Link from "next/link";
import { requireUser } from "@/lib/auth/current-user";
import { db } from "@/lib/db";
import { SignOutButton } from "@/components/dashboard/sign-out-button";

export const dynamic = "force-dynamic";

const NAV = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/obligations", label: "Obligations" },
  { href: "/dashboard/payments", label: "Payments" },
  { href: "/dashboard/contexts", label: "Contexts" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
];

export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  const org = await db().organization.findUniqueOrThrow({ where: { id: user.organizationId } });
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div>
            <p className="text-xs uppercase tracking-wide text-slate-500">Obligations</p>
            <p className="font-semibold">{org.name}</p>
          </div>
          <nav aria-label="Main" className="flex flex-wrap gap-1 text-sm">
            {NAV.map((n) => (
              <Link key={n.href} href={n.href} className="rounded-md px-3 py-1.5 text-slate-700 hover:bg-slate-100">{n.label}</Link>
            ))}
            <a href="/docs" className="rounded-md px-3 py-1.5 text-slate-700 hover:bg-slate-100">API docs</a>
          </nav>
          <div className="flex items-center gap-2 text-sm text-slate-600">
            <span>{user.name || user.email} · {user.role}</span>
            <SignOutButton />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8">{children}</main>
    </div>
  );
}
