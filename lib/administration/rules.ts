import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import type { IssuerPrincipal } from "@/lib/auth/principal";
import type { Role } from "@/lib/auth/permissions";

// Only an owner grants, changes or removes the owner role; an admin manages the others.
export function assertMayManage(principal: IssuerPrincipal, ...roles: Role[]): void {
  if (principal.kind === "user" && principal.role !== "owner" && roles.includes("owner")) {
    throw new AppError("insufficient_permission", "only an owner may grant, change or remove the owner role");
  }
}

// Call with the organization locked (lockOrganization). An invited owner is no owner yet.
export type AssertAnotherOwnerInput = { organizationId: string; membershipId: string; what: "demoted" | "removed" };

export async function assertAnotherOwner(tx: Tx, { organizationId, membershipId, what }: AssertAnotherOwnerInput): Promise<void> {
  const others = await tx.membership.count({ where: { organizationId, role: "owner", status: "active", id: { not: membershipId } } });
  if (others === 0) throw new AppError("invalid_state", `the last owner cannot be ${what}; make another member owner first`);
}
