import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

// DELETE /counterparties/{id}/account-link: revokes the live account link (its sessions get
// 410 from now on); 404 when there is none. The obligations' own links are untouched.
export async function revokeAccountLink(tx: Tx, input: { organizationId: string; counterpartyId: string; now?: Date }): Promise<void> {
  const n = await tx.accountLink.updateMany({
    where: { organizationId: input.organizationId, counterpartyId: input.counterpartyId.toLowerCase(), revokedAt: null },
    data: { revokedAt: input.now ?? new Date() },
  });
  if (n.count === 0) throw new AppError("not_found", "this counterparty has no live account link");
}
