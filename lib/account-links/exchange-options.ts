import { db } from "@/lib/db/client";
import { sha256Hex } from "@/lib/crypto";
import type { HandleOptions } from "@/lib/http/handle";
import { exchangeAccountToken } from "@/lib/account-links/exchange-account-token";
import { tokenOrganization } from "@/lib/auth/token-routing";
import { countExchangeAttempt, tokenOf } from "@/lib/recipients/exchange-options";
import { recipientSessionCookie } from "@/lib/recipients/session-cookie";

// handle() options of the account session exchange, as the payment link's
// (lib/recipients/exchange-options.ts): the Idempotency-Key scoped to the token's hash (and its route's organization), a
// fresh cookie on a replay, exchanges of one token rate limited.
export const accountExchangeOptions: HandleOptions = {
  idempotencyScope: async (_req, body) => ({
    scope: `account-exchange:${sha256Hex(tokenOf(body) ?? JSON.stringify(body ?? null))}`,
    organizationId: tokenOrganization(tokenOf(body)),
  }),
  replayCookies: async (req, body, rawParams, stored) => {
    const token = tokenOf(body);
    if (stored.status !== 200 || token === undefined || !rawParams.account) return [];
    const s = await exchangeAccountToken(db(), { token, accountId: rawParams.account, replay: true });
    return s ? [recipientSessionCookie(req, "account", s.accountId, s.sessionToken)] : [];
  },
  countAttempt: countExchangeAttempt,
};
