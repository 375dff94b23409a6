import type { Tx } from "@/lib/db/client";
import { AppError, notFound } from "@/lib/errors";
import type { IssuerPrincipal } from "@/lib/auth/principal";
import type { Role } from "@/lib/auth/permissions";
import { assertMayManage } from "@/lib/administration/rules";
import { issuePasswordReset } from "@/lib/identity/issue-password-reset";
import { isSoleMembership } from "@/lib/identity/sole-membership";
import type { TLink } from "@/lib/schemas/sessions";

export type CreatePasswordResetInput = { organizationId: string; principal: IssuerPrincipal; id: string };

// POST /members/{id}/password-reset: a one-time link for the person to set a new password,
// only for an account that belongs to this organization alone (else 409 invalid_state:
// another organization's member is never reset from here; the operator's CLI can).
export async function createPasswordReset(tx: Tx, input: CreatePasswordResetInput): Promise<TLink> {
  const m = await tx.membership.findFirst({ where: { id: input.id, organizationId: input.organizationId } });
  if (!m) throw notFound("member");
  assertMayManage(input.principal, m.role as Role);
  if (m.status !== "active") throw new AppError("invalid_state", "this member has not accepted their invitation yet; issue a new invitation instead");
  if (!(await isSoleMembership(tx, { userId: m.userId, organizationId: input.organizationId }))) {
    throw new AppError("invalid_state", "this account belongs to other organizations too; only the person or the server's operator can reset its password");
  }
  return issuePasswordReset(tx, { userId: m.userId, organizationId: input.organizationId });
}
