import { db } from "@/lib/db/client";
import { sha256Hex } from "@/lib/crypto";
import { isRole } from "@/lib/auth/permissions";
import type { IssuerPrincipal } from "@/lib/auth/principal";

// last_seen_at is refreshed at most once a minute per session, so a busy dashboard does
// not turn every read into a write.
const LAST_SEEN_GRANULARITY_MS = 60_000;

// The issuer session of a cookie value, with the member's role (an active membership
// only), user and organization name: one round trip.
export async function resolveSession(token: string): Promise<IssuerPrincipal | undefined> {
  const rows = await db().$queryRaw<
    {
      id: string;
      organization_id: string;
      organization_name: string;
      user_id: string;
      expires_at: Date;
      revoked_at: Date | null;
      last_seen_at: Date | null;
      role: string;
      email: string;
      name: string;
    }[]
  >`
    SELECT s.id::text, s.organization_id::text, o.name AS organization_name, s.user_id::text, s.expires_at, s.revoked_at, s.last_seen_at,
      m.role, u.email, u.name
    FROM issuer_sessions s
      JOIN memberships m ON m.organization_id = s.organization_id AND m.user_id = s.user_id AND m.status = 'active'
      JOIN users u ON u.id = s.user_id
      JOIN organizations o ON o.id = s.organization_id
    WHERE s.token_hash = ${sha256Hex(token)}`;
  const session = rows[0];
  if (!session || session.revoked_at || session.expires_at <= new Date() || !isRole(session.role)) return undefined;
  if (!session.last_seen_at || Date.now() - session.last_seen_at.getTime() > LAST_SEEN_GRANULARITY_MS) {
    await db().issuerSession.update({
      where: { organizationId_id: { organizationId: session.organization_id, id: session.id } },
      data: { lastSeenAt: new Date() },
    });
  }
  return {
    kind: "user",
    organizationId: session.organization_id,
    organizationName: session.organization_name,
    userId: session.user_id,
    sessionId: session.id,
    role: session.role,
    email: session.email,
    name: session.name,
  };
}
