import type { Tx } from "@/lib/db/client";
import { randomToken } from "@/lib/crypto";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { groupCounterparties } from "@/lib/counterparties/group-counterparties";
import { assertAccountUsable } from "@/lib/account-links/assert-account-usable";
import { routedToken, routedTokenHash, tokenLookup } from "@/lib/auth/token-routing";
import { recipientSessionTtlMs } from "@/lib/recipients/session-cookie";

const unknownLink = () => new AppError("unauthenticated", "this link is not valid: check that you opened the whole link");

// POST /recipient/accounts/{account}/session: the account link's token (from the URL
// fragment) for a session scoped to that account. Unknown token, or a token of another
// account -> 401; revoked / expired -> 410. The session token goes only into the cookie.
// `replay`: a replayed exchange issues a fresh session when the link is still usable and
// returns undefined otherwise (the next call says why).
export type ExchangeAccountTokenInput = { token: string; accountId: string; now?: Date; replay?: boolean };

export async function exchangeAccountToken(tx: Tx, input: ExchangeAccountTokenInput) {
  const now = input.now ?? new Date();
  // Within the organization the token's route names (a link of the old form: by its hash alone).
  const found = tokenLookup(input.token);
  const link =
    found && (await tx.accountLink.findFirst({ where: { tokenHash: found.hash, ...(found.organizationId ? { organizationId: found.organizationId } : {}) } }));
  if (!link || link.id !== input.accountId.toLowerCase()) {
    if (input.replay) return undefined;
    throw unknownLink();
  }
  if (input.replay) {
    try {
      assertAccountUsable(link, now);
    } catch {
      return undefined;
    }
  } else assertAccountUsable(link, now);
  const [cp] = await groupCounterparties(tx, { organizationId: link.organizationId, only: link.counterpartyId });
  const secret = randomToken(32);
  await tx.accountSession.create({
    data: {
      id: newId(),
      organizationId: link.organizationId,
      accountLinkId: link.id,
      tokenHash: routedTokenHash("", secret),
      createdAt: now,
      expiresAt: new Date(now.getTime() + recipientSessionTtlMs()),
    },
  });
  const sessionToken = routedToken("", link.organizationId, secret);
  return { body: { account_id: link.id, counterparty: { name: cp?.name ?? "", email: cp?.email ?? null } }, sessionToken, accountId: link.id };
}
