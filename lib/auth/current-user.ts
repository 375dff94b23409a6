import { cache } from "react";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { SESSION_COOKIE, resolveSession } from "@/lib/auth/sessions";
import type { IssuerPrincipal } from "@/lib/auth/principal";

export type DashboardUser = Extract<IssuerPrincipal, { kind: "user" }>;

// The session of this request, resolved once per render (layout and page share it).
const sessionUser = cache(async (): Promise<DashboardUser | undefined> => {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  const p = token ? await resolveSession(token) : undefined;
  return p?.kind === "user" ? p : undefined;
});

// For dashboard server components: the signed-in user, or a redirect to /login.
export async function requireUser(): Promise<DashboardUser> {
  const p = await sessionUser();
  if (!p) redirect("/login");
  return p;
}

export async function currentUser(): Promise<DashboardUser | undefined> {
  return sessionUser();
}
