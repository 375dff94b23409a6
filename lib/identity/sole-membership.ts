import type { Tx } from "@/lib/db/client";

export type SoleMembershipInput = { userId: string; organizationId: string };

// Whether the account belongs to this organization alone (invitations elsewhere count):
// only then may the organization hand out a password-reset link for it.
export async function isSoleMembership(tx: Tx, { userId, organizationId }: SoleMembershipInput): Promise<boolean> {
  const ms = await tx.membership.findMany({ where: { userId }, select: { organizationId: true, status: true } });
  return ms.length === 1 && ms[0].organizationId === organizationId && ms[0].status === "active";
}
