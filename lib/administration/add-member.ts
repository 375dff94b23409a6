import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { IssuerPrincipal } from "@/lib/auth/principal";
import { memberView } from "@/lib/administration/view";
import { assertMayManage } from "@/lib/administration/rules";
import { issueInvitation } from "@/lib/identity/issue-invitation";
import type { TMemberInput, TMemberInvited } from "@/lib/schemas/administration";

export type AddMemberInput = { organizationId: string; principal: IssuerPrincipal } & TMemberInput;

// POST /members invites: the membership is "invited" until the person accepts the one-time
// link (lib/identity/accept-invitation.ts). One account per email across the service: an
// email without one gets a user row with no credential (the acceptance sets it); an
// organization never sets, and never learns, a password.
export async function addMember(tx: Tx, input: AddMemberInput): Promise<TMemberInvited> {
  assertMayManage(input.principal, input.role);
  const email = input.email.trim().toLowerCase();
  let user = await tx.user.findUnique({ where: { email } });
  if (user) {
    const m = await tx.membership.findUnique({ where: { organizationId_userId: { organizationId: input.organizationId, userId: user.id } } });
    if (m?.status === "active") throw new AppError("duplicate", "body.email: this person is already a member");
    if (m)
      throw new AppError("duplicate", `body.email: this person is already invited (member ${m.id}); issue a new link with POST /members/${m.id}/invitation`);
  } else {
    user = await tx.user.create({ data: { id: newId(), email, name: input.name ?? "", passwordHash: "" } });
  }
  const m = await tx.membership.create({
    data: { id: newId(), organizationId: input.organizationId, userId: user.id, role: input.role, status: "invited" },
    include: { user: true },
  });
  const invitation = await issueInvitation(tx, { organizationId: input.organizationId, membershipId: m.id, userId: user.id });
  return { member: memberView(m), invitation };
}
