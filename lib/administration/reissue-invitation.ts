import type { Tx } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { IssuerPrincipal } from "@/lib/auth/principal";
import type { Role } from "@/lib/auth/permissions";
import { memberView } from "@/lib/administration/view";
import { assertMayManage } from "@/lib/administration/rules";
import { issueInvitation } from "@/lib/identity/issue-invitation";
import type { TMemberInvited } from "@/lib/schemas/administration";

export type ReissueInvitationInput = { organizationId: string; principal: IssuerPrincipal; id: string };

// POST /members/{id}/invitation: a new link for an invited member; the earlier one dies.
export async function reissueInvitation(tx: Tx, input: ReissueInvitationInput): Promise<TMemberInvited> {
  const m = await tx.membership.findFirst({ where: { id: input.id, organizationId: input.organizationId }, include: { user: true } });
  if (!m) throw notFound("member");
  assertMayManage(input.principal, m.role as Role);
  if (m.status !== "invited") throw new AppError("invalid_state", "this member has accepted their invitation already");
  const invitation = await issueInvitation(tx, { organizationId: input.organizationId, membershipId: m.id, userId: m.userId });
  return { member: memberView(m), invitation };
}
