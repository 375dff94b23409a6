import type { Tx } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { getCounterparty } from "@/lib/counterparties/get-counterparty";
import { ACCOUNT_LINK_TTL_DAYS, accountHostedUrl, accountToken, accountTokenHash } from "@/lib/account-links/tokens";

// POST /counterparties/{id}/account-link: a new account link for the counterparty (404 when
// no obligation derives to it). At most one is live: the previous ones are revoked (their sessions
// get 410). The obligations' own links are untouched.
export type CreateAccountLinkInput = { organizationId: string; counterpartyId: string; now?: Date };

export async function createAccountLink(tx: Tx, input: CreateAccountLinkInput) {
  const now = input.now ?? new Date();
  const cp = await getCounterparty(tx, input);
  const live = await tx.accountLink.findMany({ where: { organizationId: input.organizationId, counterpartyId: cp.id, revokedAt: null }, select: { id: true } });
  if (live.length > 0) {
    const ids = live.map((l) => l.id);
    await tx.accountLink.updateMany({ where: { organizationId: input.organizationId, id: { in: ids } }, data: { revokedAt: now } });
  }
  const id = newId();
  const expiresAt = new Date(now.getTime() + ACCOUNT_LINK_TTL_DAYS * 86_400_000);
  await tx.accountLink.create({
    data: { id, organizationId: input.organizationId, counterpartyId: cp.id, tokenHash: accountTokenHash(accountToken(id)), expiresAt, createdAt: now },
  });
  return { id, hosted_url: accountHostedUrl(input.organizationId, id), expires_at: expiresAt.toISOString() };
}
