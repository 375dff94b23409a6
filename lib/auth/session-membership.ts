import { sql, type Tx } from "@/lib/db/client";
import { isRole, type Role } from "@/lib/auth/permissions";

export type SessionMembership = { organizationId: string; organizationName: string; role: Role };
export type SessionMembershipInput = { userId: string; organizationId?: string };

// The organization a sign-in lands in: the one asked for, else the one the account used
// last (its newest session), else its oldest membership. Active memberships only: an
// invitation not yet accepted gives no way in. undefined: no such membership.
export async function sessionMembership(tx: Tx, { userId, organizationId }: SessionMembershipInput): Promise<SessionMembership | undefined> {
  const rows = await sql<{ organization_id: string; name: string; role: string }>(
    tx,
    `SELECT m.organization_id::text, o.name, m.role
     FROM memberships m JOIN organizations o ON o.id = m.organization_id
     WHERE m.user_id = $1::uuid AND m.status = 'active' AND ($2::uuid IS NULL OR m.organization_id = $2::uuid)
     ORDER BY (SELECT max(s.created_at) FROM issuer_sessions s WHERE s.user_id = m.user_id AND s.organization_id = m.organization_id) DESC NULLS LAST,
       m.created_at, m.id
     LIMIT 1`,
    [userId, organizationId ?? null],
  );
  const r = rows[0];
  if (!r || !isRole(r.role)) return undefined;
  return { organizationId: r.organization_id, organizationName: r.name, role: r.role };
}
