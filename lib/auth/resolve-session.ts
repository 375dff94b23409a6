import { db } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { isRole } from "@/lib/auth/permissions";
import type { IssuerPrincipal } from "@/lib/auth/principal";
import { tokenLookup } from "@/lib/auth/token-routing";

// last_seen_at is refreshed at most once a minute per session, so a busy dashboard does
// not turn every read into a write.
const LAST_SEEN_GRANULARITY_MS = 60_000;

// The issuer session of a cookie value, with the member's role (an active membership
// only), user and organization name: one round trip, within the organization the token's
// route names (lib/auth/token-routing.ts; a token of the old form: by its hash alone).
export async function resolveSession(token: string): Promise<IssuerPrincipal | undefined> {
  const found = tokenLookup(token);
  if (!found) return undefined;
  let q = query(db())
    .selectFrom("issuer_sessions as s")
    .innerJoin("memberships as m", (j) =>
      j.onRef("m.organization_id", "=", "s.organization_id").onRef("m.user_id", "=", "s.user_id").on("m.status", "=", "active"),
    )
    .innerJoin("users as u", "u.id", "s.user_id")
    .innerJoin("organizations as o", "o.id", "s.organization_id")
    .select([
      "s.id",
      "s.organization_id",
      "o.name as organization_name",
      "s.user_id",
      "s.expires_at",
      "s.revoked_at",
      "s.last_seen_at",
      "m.role",
      "u.email",
      "u.name",
    ])
    .where("s.token_hash", "=", found.hash);
  if (found.organizationId !== undefined) q = q.where("s.organization_id", "=", found.organizationId);
  const session = await q.executeTakeFirst();
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
