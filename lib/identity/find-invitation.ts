import type { Tx } from "@/lib/db/client";
import { safeEqual } from "@/lib/crypto";
import { AppError, notFound } from "@/lib/errors";
import { tokenLookup } from "@/lib/auth/token-routing";

export type FindInvitationInput = { id: string; token: string };

// The invitation of a link: unknown id or wrong token 404 (nothing learnt without the
// token); used, withdrawn, reissued or expired 410 invitation_expired. Read within the
// organization the token's route names (a link of the old form: by its id alone).
export async function findInvitation(tx: Tx, { id, token }: FindInvitationInput) {
  const found = tokenLookup(token);
  if (!found) throw notFound("invitation");
  const where = found.organizationId === undefined ? { id } : { id, organizationId: found.organizationId };
  const inv = await tx.invitation.findFirst({ where, include: { user: true, membership: true } });
  if (!inv || !safeEqual(inv.tokenHash, found.hash)) throw notFound("invitation");
  if (inv.usedAt || inv.revokedAt || !inv.membership || inv.membership.status !== "invited" || inv.expiresAt <= new Date()) {
    throw new AppError("invitation_expired", "this invitation has expired, was used or was withdrawn; ask for a new one");
  }
  return { ...inv, membership: inv.membership };
}
