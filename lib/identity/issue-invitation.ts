import type { Tx } from "@/lib/db/client";
import { publicBaseUrl } from "@/lib/env";
import { randomToken } from "@/lib/crypto";
import { newId } from "@/lib/ids";
import type { TLink } from "@/lib/schemas/sessions";
import { routedToken, routedTokenHash } from "@/lib/auth/token-routing";

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

export type IssueInvitationInput = { organizationId: string; membershipId: string; userId: string };

// A new one-time invitation of an invited membership; any earlier one ends. The token is
// in the URL's fragment only (never sent to a server by a browser) and stored as SHA-256; it
// names the organization (`<route>.<secret>`, lib/auth/token-routing.ts).
export async function issueInvitation(tx: Tx, input: IssueInvitationInput): Promise<TLink> {
  const now = new Date();
  await tx.invitation.updateMany({
    where: { organizationId: input.organizationId, membershipId: input.membershipId, usedAt: null, revokedAt: null },
    data: { revokedAt: now },
  });
  const id = newId();
  const secret = randomToken(32);
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  await tx.invitation.create({ data: { id, ...input, tokenHash: routedTokenHash("", secret), expiresAt } });
  return { url: `${publicBaseUrl()}/invite/${id}#${routedToken("", input.organizationId, secret)}`, expires_at: expiresAt.toISOString() };
}
