import type { Tx } from "@/lib/db/client";
import { notFound } from "@/lib/errors";
import type { IssuerPrincipal } from "@/lib/auth/principal";
import type { Role } from "@/lib/auth/permissions";
import { memberView } from "@/lib/administration/view";
import { atomically, lockOrganization } from "@/lib/administration/atomic";
import { assertAnotherOwner, assertMayManage } from "@/lib/administration/rules";
import type { TMember } from "@/lib/schemas/administration";

export type ChangeMemberRoleInput = { organizationId: string; principal: IssuerPrincipal; id: string; role: Role };

// The role is read on every request, so the change applies to the member's very next call.
export async function changeMemberRole(tx: Tx, input: ChangeMemberRoleInput): Promise<TMember> {
  return atomically(tx, async (tx) => {
    await lockOrganization(tx, { organizationId: input.organizationId });
    const m = await tx.membership.findFirst({ where: { id: input.id, organizationId: input.organizationId } });
    if (!m) throw notFound("member");
    assertMayManage(input.principal, m.role as Role, input.role);
    if (m.role === "owner" && m.status === "active" && input.role !== "owner")
      await assertAnotherOwner(tx, { organizationId: input.organizationId, membershipId: m.id, what: "demoted" });
    const updated = await tx.membership.update({
      where: { organizationId_id: { organizationId: m.organizationId, id: m.id } },
      data: { role: input.role },
      include: { user: true },
    });
    return memberView(updated);
  });
}
