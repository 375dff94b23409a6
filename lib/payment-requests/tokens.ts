import { hmacBase64Url, sha256Hex } from "@/lib/crypto";
import { env, publicBaseUrl } from "@/lib/env";
import { routedToken } from "@/lib/auth/token-routing";

// Hosted payment-request links. The token is never stored: it is derived as
// HMAC-SHA256(APP_SECRET, "{request id}:{issue number}") (256 bits, base64url), so the
// service can show the same hosted_url again while a copy of the database alone yields no
// working link. Only SHA-256(token) is kept (payment_requests.token_hash) for look-up.
// Reissuing bumps the issue number: a new token, and the old one stops matching. The hosted
// URL's token names the organization (`<route>.<derived>`, lib/auth/token-routing.ts) over the
// same stored hash, so the links handed out before routing (`#<derived>`) keep working.
// Never log a token or a hosted URL.
const PURPOSE = "payment-request-token";

export const deriveToken = (requestId: string, issueNumber: number): string => hmacBase64Url(PURPOSE, `${requestId}:${issueNumber}`);

export const tokenHash = (token: string): string => sha256Hex(token);

export const hostedUrl = (pr: { organizationId: string; id: string; issueNumber: number }): string =>
  `${publicBaseUrl()}/r/${pr.id}#${routedToken("", pr.organizationId, deriveToken(pr.id, pr.issueNumber))}`;

export const newExpiry = (now = new Date()): Date => new Date(now.getTime() + env().PAYMENT_REQUEST_TTL_DAYS * 86_400_000);
