import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

// GET /counterparties/{id}/account-link: the most recent link's state, never its URL.
export async function getAccountLink(tx: Tx, input: { organizationId: string; counterpartyId: string }) {
  const l = await tx.accountLink.findFirst({
    where: { organizationId: input.organizationId, counterpartyId: input.counterpartyId.toLowerCase() },
    orderBy: { createdAt: "desc" },
  });
  if (!l) throw new AppError("not_found", "this counterparty has no account link");
  return { id: l.id, expires_at: l.expiresAt.toISOString(), revoked_at: l.revokedAt?.toISOString() ?? null, created_at: l.createdAt.toISOString() };
}
