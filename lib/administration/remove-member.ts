import type { Tx } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import type { IssuerPrincipal } from "@/lib/auth/principal";
import type { Role } from "@/lib/auth/permissions";
import { atomically, lockOrganization } from "@/lib/administration/atomic";
import { assertAnotherOwner, assertMayManage } from "@/lib/administration/rules";

export type RemoveMemberInput = { organizationId: string; principal: IssuerPrincipal; id: string };

// Removes the membership and ends the member's sessions in this organization at once; for
// an invited member, withdraws the invitation (its link dies). The user row stays (the
// email may belong to other organizations, and audit entries name it).
export async function removeMember(tx: Tx, input: RemoveMemberInput): Promise<void> {
  await atomically(tx, async (tx) => {
    await lockOrganization(tx, { organizationId: input.organizationId });
    const m = await tx.membership.findFirst({ where: { id: input.id, organizationId: input.organizationId } });
    if (!m) throw notFound("member");
    assertMayManage(input.principal, m.role as Role);
    if (m.role === "owner" && m.status === "active")
      await assertAnotherOwner(tx, { organizationId: input.organizationId, membershipId: m.id, what: "removed" });
    await tx.invitation.updateMany({
      where: { organizationId: input.organizationId, membershipId: m.id, usedAt: null, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    // the invitations stay, without their membership (no ON DELETE SET NULL: migration 0028)
    await tx.invitation.updateMany({ where: { organizationId: input.organizationId, membershipId: m.id }, data: { membershipId: null } });
    await tx.membership.delete({ where: { organizationId_id: { organizationId: m.organizationId, id: m.id } } });
    await tx.issuerSession.updateMany({
      where: { organizationId: input.organizationId, userId: m.userId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
  });
}
