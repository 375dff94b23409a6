import { cache } from "react";
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { sessionTokenFrom } from "@/lib/auth/session-cookie";
import { resolveSession } from "@/lib/auth/resolve-session";
import type { IssuerPrincipal } from "@/lib/auth/principal";
import type { Permission } from "@/lib/auth/permissions";
import { can } from "@/lib/dashboard/permissions";

export type DashboardUser = Extract<IssuerPrincipal, { kind: "user" }>;
// The signed-in user of a page, with the role's permissions at hand for its controls.
export type PageUser = DashboardUser & { can: (permission: Permission) => boolean };

// The session of this request, resolved once per render (layout and page share it).
const sessionUser = cache(async (): Promise<DashboardUser | undefined> => {
  const jar = await cookies();
  const token = sessionTokenFrom((name) => jar.get(name)?.value);
  const p = token ? await resolveSession(token) : undefined;
  return p?.kind === "user" ? p : undefined;
});

// Every dashboard page starts with this, declaring what it needs like an operation does:
// `await requireUser({ permission: "payments:read" })`. No session: a redirect to /login.
// A role without the permission: the dashboard's not-found page, which says the role may
// be why (app/dashboard/not-found.tsx) — the same answer as for another organization's id.
export async function requireUser(opts: { permission?: Permission } = {}): Promise<PageUser> {
  const p = await sessionUser();
  if (!p) redirect("/login");
  if (opts.permission && !can(p.role, opts.permission)) notFound();
  return { ...p, can: (permission: Permission) => can(p.role, permission) };
}

export async function currentUser(): Promise<DashboardUser | undefined> {
  return sessionUser();
}
