import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { hitRateLimit } from "@/lib/rate-limit";
import { tokenLookup, tokenOrganization } from "@/lib/auth/token-routing";
import { sha256Hex } from "@/lib/crypto";
import type { HandleOptions } from "@/lib/http/handle";
import { ZRecipientSessionExchange } from "@/lib/schemas/recipient";
import { sessionForReplayedExchange } from "@/lib/recipients/exchange-token";
import { recipientSessionCookie, type RecipientFamily } from "@/lib/recipients/session-cookie";

export const tokenOf = (body: unknown): string | undefined => {
  const r = ZRecipientSessionExchange.safeParse(body);
  return r.success ? r.data.token : undefined;
};

// handle() options of the session exchange (auth none): the Idempotency-Key is scoped to
// the link token (its SHA-256, never the token itself; the organization its route's), and a replayed successful exchange
// sets a fresh session cookie (lib/recipients/exchange-token.ts). Exchanges of one link
// token are rate limited like the link's other state-changing calls
// (RECIPIENT_RATE_LIMIT_PER_MINUTE, counted before the transaction: each exchange records
// an event and a session).
export function exchangeHandleOptions(family: RecipientFamily): HandleOptions {
  return {
    idempotencyScope: async (_req, body) => {
      const token = tokenOf(body);
      return { scope: `exchange:${sha256Hex(token ?? JSON.stringify(body ?? null))}`, organizationId: tokenOrganization(token) };
    },
    replayCookies: async (req, body, rawParams, stored) => {
      const token = tokenOf(body);
      if (stored.status !== 200 || token === undefined) return [];
      const s = await sessionForReplayedExchange(db(), { token, requestId: family === "context" ? rawParams.request : undefined });
      return s ? [recipientSessionCookie(req, family, s.paymentRequestId, s.sessionToken)] : [];
    },
    countAttempt: countExchangeAttempt,
  };
}

// Exchanges of one link token (payment or account link), counted before the transaction.
export const countExchangeAttempt: NonNullable<HandleOptions["countAttempt"]> = async ({ body }) => {
  const limit = env().RECIPIENT_RATE_LIMIT_PER_MINUTE;
  const token = tokenOf(body);
  if (limit > 0 && token !== undefined) {
    // The stored hash: one bucket for a link with and without its route.
    const s = await hitRateLimit(`recipient:exchange:${tokenLookup(token)?.hash ?? sha256Hex(token)}`, 60, limit);
    if (s.limited) throw recipientRateLimited(s.retryAfterSeconds);
  }
  return { release: async () => {} };
};

export const recipientRateLimited = (retryAfterSeconds: number) =>
  new AppError("rate_limited", "too many requests for this link; wait a minute and try again", { headers: { "Retry-After": String(retryAfterSeconds) } });
