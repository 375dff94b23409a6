import type { Tx } from "@/lib/db/client";
import type { UserPrincipal } from "@/lib/auth/principal";

export type SignOutInput = { principal: UserPrincipal };

// DELETE /session: this session ends; the account's others stay.
export async function signOut(tx: Tx, { principal }: SignOutInput): Promise<void> {
  await tx.issuerSession.updateMany({
    where: { id: principal.sessionId, organizationId: principal.organizationId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}
