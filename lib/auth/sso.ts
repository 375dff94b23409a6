import { db, transaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { sessionMembership } from "@/lib/auth/session-membership";
import { startSession } from "@/lib/auth/start-session";
import { acceptInvitation } from "@/lib/identity/accept-invitation";

export type SsoRefusal = "unverified" | "not_a_member" | "invitation";
export type SsoResult = { ok: true; token: string; expiresAt: Date } | { ok: false; reason: SsoRefusal };

// The claims of the identity provider's ID token / userinfo that matter here.
export type SsoProfile = { email?: unknown; email_verified?: unknown; xms_edov?: unknown };

// Microsoft Entra sends no email_verified; its optional claim xms_edov ("email domain owner
// verified") says the same thing.
const verified = (p: SsoProfile) => p.email_verified === true || p.email_verified === "true" || p.xms_edov === true || p.xms_edov === "true";

// Single sign-on admits only people who are already members, matched by a verified email;
// it never creates an account. With an invitation (the invitation page passes its id and
// token), a verified email that is the invitation's accepts it (lib/identity). The session
// is the same revocable row as a password sign-in, so sign-out, role changes and removal
// apply at once; it lands in the organization the account used last.
export async function ssoSignIn(profile: SsoProfile, userAgent: string, invitation?: { id: string; token: string }): Promise<SsoResult> {
  if (!verified(profile) || typeof profile.email !== "string" || profile.email === "") return { ok: false, reason: "unverified" };
  const verifiedEmail = profile.email;
  if (invitation) {
    try {
      const r = await transaction((tx) => acceptInvitation(tx, { ...invitation, verifiedEmail, userAgent }));
      return { ok: true, token: r.token, expiresAt: r.expiresAt };
    } catch (err) {
      if (err instanceof AppError) return { ok: false, reason: "invitation" };
      throw err;
    }
  }
  const email = verifiedEmail.trim().toLowerCase();
  const user = await db().user.findUnique({ where: { email } });
  const membership = user ? await sessionMembership(db(), { userId: user.id }) : undefined;
  if (!user || !membership) return { ok: false, reason: "not_a_member" };
  const s = await startSession({ organizationId: membership.organizationId, userId: user.id, userAgent, method: "identity_provider" });
  return { ok: true, ...s };
}

export const SSO_MESSAGES: Record<string, string> = {
  unverified: "Your identity provider did not confirm that this email address is verified, so you cannot sign in with it here.",
  not_a_member: "No member of this service has that email address. Ask an owner or admin of your organization to add you.",
  invitation:
    "Single sign-on did not accept the invitation: it has expired, was used or withdrawn, or your identity provider confirmed another email address than the invited one.",
  failed: "Single sign-on did not complete. Try again, or sign in with your password.",
};
