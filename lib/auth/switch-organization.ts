import type { Tx } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import type { UserPrincipal } from "@/lib/auth/principal";
import { sessionMembership } from "@/lib/auth/session-membership";
import { startSession } from "@/lib/auth/start-session";
import { signedIn, type SignInResult } from "@/lib/auth/session-view";

export type SwitchOrganizationInput = { principal: UserPrincipal; userAgent: string; organization_id: string };

// POST /session/organization: a new session in another organization of the account (same
// sign-in method), the calling one ended. Not an active member there: 404.
export async function switchOrganization(tx: Tx, { principal: p, userAgent, organization_id }: SwitchOrganizationInput): Promise<SignInResult> {
  const membership = await sessionMembership(tx, { userId: p.userId, organizationId: organization_id });
  if (!membership) throw notFound("organization");
  const current = await tx.issuerSession.findUniqueOrThrow({ where: { organizationId_id: { organizationId: p.organizationId, id: p.sessionId } } });
  await tx.issuerSession.updateMany({ where: { id: p.sessionId, organizationId: p.organizationId, revokedAt: null }, data: { revokedAt: new Date() } });
  const method = current.method === "identity_provider" ? "identity_provider" : "password";
  const started = await startSession({ organizationId: membership.organizationId, userId: p.userId, userAgent, method });
  return signedIn(
    started,
    { id: p.userId, email: p.email, name: p.name },
    { id: membership.organizationId, name: membership.organizationName },
    membership.role,
  );
}
