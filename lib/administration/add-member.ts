import type { Tx } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { hashPassword } from "@/lib/auth/passwords";
import type { IssuerPrincipal } from "@/lib/auth/principal";
import { memberView } from "@/lib/administration/view";
import { assertMayManage } from "@/lib/administration/rules";
import type { TMember, TMemberInput } from "@/lib/schemas/administration";

export type AddMemberInput = { organizationId: string; principal: IssuerPrincipal } & TMemberInput;

// A user is one email across the service. A new email becomes a user with the initial
// password (or none: identity provider only). An email that already has an account of
// its own elsewhere keeps its own credentials: giving it an initial password is refused.
export async function addMember(tx: Tx, input: AddMemberInput): Promise<TMember> {
  assertMayManage(input.principal, input.role);
  const email = input.email.trim().toLowerCase();
  // "" is never a valid argon2 hash: such a user cannot sign in by password.
  const passwordHash = input.sign_in === "password" ? await hashPassword(input.password ?? "") : "";
  let user = await tx.user.findUnique({ where: { email }, include: { memberships: true } });
  if (user?.memberships.some((m) => m.organizationId === input.organizationId)) {
    throw new AppError("duplicate", "body.email: this person is already a member");
  }
  if (user && user.memberships.length > 0 && input.sign_in === "password") {
    throw new AppError("duplicate", "body.email: this email already has an account; add it with sign_in identity_provider (it keeps its own password)");
  }
  if (!user) {
    user = await tx.user.create({ data: { id: newId(), email, name: input.name ?? "", passwordHash }, include: { memberships: true } });
  } else if (user.memberships.length === 0) {
    // A former member of no organization any more: starts afresh with these credentials.
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, name: input.name ?? user.name, passwordChangedAt: new Date() } });
  }
  const m = await tx.membership.create({
    data: { id: newId(), organizationId: input.organizationId, userId: user.id, role: input.role },
    include: { user: true },
  });
  return memberView(m);
}
