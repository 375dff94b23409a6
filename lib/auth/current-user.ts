import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { SESSION_COOKIE, resolveSession } from "@/lib/auth/sessions";
import type { IssuerPrincipal } from "@/lib/auth/principal";

export type DashboardUser = Extract<IssuerPrincipal, { kind: "user" }>;

// For dashboard server components: the signed-in user, or a redirect to /login.
export async function requireUser(): Promise<DashboardUser> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const p = token ? await resolveSession(token) : undefined;
  if (!p || p.kind !== "user") redirect("/login");
  return p;
}

export async function currentUser(): Promise<DashboardUser | undefined> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const p = token ? await resolveSession(token) : undefined;
  return p?.kind === "user" ? p : undefined;
}
