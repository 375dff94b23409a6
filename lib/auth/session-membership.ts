import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { type Query, statement } from "@/lib/db/query";
import { isRole, type Role } from "@/lib/auth/permissions";

export type SessionMembership = { organizationId: string; organizationName: string; role: Role };
export type SessionMembershipInput = { userId: string; organizationId?: string };

// The organization a sign-in lands in: the one asked for, else the one the account used
// last (its newest session), else its oldest membership. Active memberships only: an
// invitation not yet accepted gives no way in. undefined: no such membership.
export async function sessionMembership(tx: Tx, { userId, organizationId }: SessionMembershipInput): Promise<SessionMembership | undefined> {
  const rows = organizationId === undefined ? await anyMembership.rows(tx, { userId }) : await membershipIn.rows(tx, { userId, organizationId });
  const r = rows[0];
  if (!r || !isRole(r.role)) return undefined;
  return { organizationId: r.organization_id, organizationName: r.name, role: r.role };
}

// The user's active memberships with their organization's name.
const memberships = (q: Query, p: { userId: string }) =>
  q
    .selectFrom("memberships as m")
    .innerJoin("organizations as o", "o.id", "m.organization_id")
    .select(["m.organization_id", "o.name", "m.role"])
    .where("m.user_id", "=", p.userId)
    .where("m.status", "=", raw.lit("active"));

// Any organization of the user, the last used first (sign-in by single sign-on: on Citus its
// memberships on every shard; `users` is a reference table).
const anyMembership = statement((q, p: { userId: string }) =>
  memberships(q, p)
    .orderBy(
      (eb) =>
        eb
          .selectFrom("issuer_sessions as s")
          .select((s) => s.fn.max("s.created_at").as("last"))
          .whereRef("s.user_id", "=", "m.user_id")
          .whereRef("s.organization_id", "=", "m.organization_id"),
      (o) => o.desc().nullsLast(),
    )
    .orderBy("m.created_at")
    .orderBy("m.id")
    .limit(raw.lit(1)),
);

// The user's membership of the organization named (a sign-in naming it, a switch): at most one
// row (unique per organization and user), so nothing to order; one shard on Citus.
const membershipIn = statement((q, p: { userId: string; organizationId: string }) => memberships(q, p).where("m.organization_id", "=", p.organizationId));
