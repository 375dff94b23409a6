import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { hitRateLimit } from "@/lib/rate-limit";
import { sha256Hex } from "@/lib/crypto";
import type { HandleOptions } from "@/lib/http/handle";
import { ZRecipientSessionExchange } from "@/lib/schemas/recipient";
import { exchangeAccountToken } from "@/lib/account-links/exchange-account-token";
import { tokenLookup, tokenOrganization } from "@/lib/auth/token-routing";
import { recipientRateLimited } from "@/lib/recipients/exchange-options";
import { recipientSessionCookie } from "@/lib/recipients/session-cookie";

const tokenOf = (body: unknown): string | undefined => {
  const r = ZRecipientSessionExchange.safeParse(body);
  return r.success ? r.data.token : undefined;
};

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
  countAttempt: async ({ body }) => {
    const limit = env().RECIPIENT_RATE_LIMIT_PER_MINUTE;
    const token = tokenOf(body);
    if (limit > 0 && token !== undefined) {
      // The stored hash: one bucket for a link with and without its route.
      const s = await hitRateLimit(`recipient:exchange:${tokenLookup(token)?.hash ?? sha256Hex(token)}`, 60, limit);
      if (s.limited) throw recipientRateLimited(s.retryAfterSeconds);
    }
    return { release: async () => {} };
  },
};
