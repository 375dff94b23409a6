import type { Tx } from "@/lib/db/client";
import { isRole } from "@/lib/auth/permissions";
import type { UserPrincipal } from "@/lib/auth/principal";
import type { TSessionDetail } from "@/lib/schemas/sessions";

export type DescribeSessionInput = { principal: UserPrincipal };

// GET /session: who, where, until when, and every organization the account may switch to.
export async function describeSession(tx: Tx, { principal: p }: DescribeSessionInput): Promise<TSessionDetail> {
  const [session, memberships] = await Promise.all([
    tx.issuerSession.findFirstOrThrow({ where: { id: p.sessionId, organizationId: p.organizationId } }),
    tx.membership.findMany({
      where: { userId: p.userId, status: "active" },
      include: { organization: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    }),
  ]);
  return {
    user: { id: p.userId, email: p.email, name: p.name },
    organization: { id: p.organizationId, name: p.organizationName },
    role: p.role,
    expires_at: session.expiresAt.toISOString(),
    organizations: memberships.flatMap((m) => (isRole(m.role) ? [{ id: m.organizationId, name: m.organization.name, role: m.role }] : [])),
  };
}
