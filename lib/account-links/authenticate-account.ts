import { db } from "@/lib/db/client";
import { tokenLookup } from "@/lib/auth/token-routing";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import { assertAccountUsable } from "@/lib/account-links/assert-account-usable";
import { readRecipientCookie } from "@/lib/recipients/session-cookie";

// The `authenticate` of the account family (/recipient/accounts/{account}/...): its cookie ->
// a RecipientPrincipal of the account (paymentRequestId = the account link's id, no
// obligation). Every call re-checks the link: revoked/expired -> 410, unknown or ended
// session or a session of another account -> 401. A malformed {account} is 404.
export async function authenticateAccount(req: Request, rawParams: Record<string, string>, now = new Date()): Promise<RecipientPrincipal> {
  const accountId = rawParams.account?.toLowerCase();
  if (!accountId || !isUuid(accountId)) throw new AppError("not_found", "account not found");
  const token = readRecipientCookie(req, "account", accountId);
  const ended = () => new AppError("unauthenticated", "the session is unknown or has ended: open the secure link again");
  const found = token ? tokenLookup(token) : undefined;
  if (!found) throw ended();
  // Within the organization the session token's route names (old form: by its hash alone).
  const s = await db().accountSession.findFirst({
    where: { tokenHash: found.hash, ...(found.organizationId ? { organizationId: found.organizationId } : {}) },
  });
  if (!s || s.accountLinkId !== accountId || s.expiresAt.getTime() <= now.getTime()) throw ended();
  const link = await db().accountLink.findFirst({ where: { organizationId: s.organizationId, id: s.accountLinkId } });
  if (!link) throw ended();
  assertAccountUsable(link, now);
  return {
    kind: "recipient",
    organizationId: link.organizationId,
    paymentRequestId: link.id,
    obligationId: "",
    sessionId: s.id,
    accountLinkId: link.id,
    counterpartyId: link.counterpartyId,
  };
}
