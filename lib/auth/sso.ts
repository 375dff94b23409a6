import { db } from "@/lib/db";
import { isRole } from "@/lib/auth/permissions";
import { startSession } from "@/lib/auth/sessions";

export type SsoRefusal = "unverified" | "not_a_member";
export type SsoResult = { ok: true; token: string; expiresAt: Date } | { ok: false; reason: SsoRefusal };

// The claims of the identity provider's ID token / userinfo that matter here.
export type SsoProfile = { email?: unknown; email_verified?: unknown; xms_edov?: unknown };

// Microsoft Entra sends no email_verified; its optional claim xms_edov ("email domain owner
// verified") says the same thing.
const verified = (p: SsoProfile) => p.email_verified === true || p.email_verified === "true" || p.xms_edov === true || p.xms_edov === "true";

// Single sign-on admits only people who are already members, matched by a verified email;
// it never creates an account. The session is the same revocable row as a password
// sign-in (lib/auth/sessions.ts), so sign-out, role changes and removal apply at once.
export async function ssoSignIn(profile: SsoProfile, userAgent: string): Promise<SsoResult> {
  if (!verified(profile) || typeof profile.email !== "string" || profile.email === "") return { ok: false, reason: "unverified" };
  const email = profile.email.trim().toLowerCase();
  const user = await db().user.findUnique({
    where: { email },
    include: { memberships: { orderBy: { createdAt: "asc" }, take: 1 } },
  });
  const membership = user?.memberships[0];
  if (!user || !membership || !isRole(membership.role)) return { ok: false, reason: "not_a_member" };
  const s = await startSession({ organizationId: membership.organizationId, userId: user.id, userAgent, method: "identity_provider" });
  return { ok: true, ...s };
}

export const SSO_MESSAGES: Record<string, string> = {
  unverified: "Your identity provider did not confirm that this email address is verified, so you cannot sign in with it here.",
  not_a_member: "No member of this service has that email address. Ask an owner or admin of your organization to add you.",
  failed: "Single sign-on did not complete. Try again, or sign in with your password.",
};
