import type { Tx } from "@/lib/db/client";
import { safeEqual, sha256Hex } from "@/lib/crypto";
import { AppError, notFound } from "@/lib/errors";

export type FindInvitationInput = { id: string; token: string };

// The invitation of a link: unknown id or wrong token 404 (nothing learnt without the
// token); used, withdrawn, reissued or expired 410 invitation_expired.
export async function findInvitation(tx: Tx, { id, token }: FindInvitationInput) {
  // findFirst: the link carries no organization yet (ids are unique in practice; the key is (organization, id))
  const inv = await tx.invitation.findFirst({ where: { id }, include: { user: true, membership: true } });
  if (!inv || !safeEqual(inv.tokenHash, sha256Hex(token))) throw notFound("invitation");
  if (inv.usedAt || inv.revokedAt || !inv.membership || inv.membership.status !== "invited" || inv.expiresAt <= new Date()) {
    throw new AppError("invitation_expired", "this invitation has expired, was used or was withdrawn; ask for a new one");
  }
  return { ...inv, membership: inv.membership };
}
