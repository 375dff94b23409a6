import { hmacBase64Url, sha256Hex } from "@/lib/crypto";
import { env, publicBaseUrl } from "@/lib/env";

// Hosted payment-request links. The token is never stored: it is derived as
// HMAC-SHA256(APP_SECRET, "{request id}:{issue number}") (256 bits, base64url), so the
// service can show the same hosted_url again while a copy of the database alone yields no
// working link. Only SHA-256(token) is kept (payment_requests.token_hash) for look-up.
// Reissuing bumps the issue number: a new token, and the old one stops matching.
// Never log a token or a hosted URL.
const PURPOSE = "payment-request-token";

export const deriveToken = (requestId: string, issueNumber: number): string => hmacBase64Url(PURPOSE, `${requestId}:${issueNumber}`);

export const tokenHash = (token: string): string => sha256Hex(token);

export const hostedUrl = (requestId: string, issueNumber: number): string => `${publicBaseUrl()}/r/${requestId}#${deriveToken(requestId, issueNumber)}`;

export const newExpiry = (now = new Date()): Date => new Date(now.getTime() + env().PAYMENT_REQUEST_TTL_DAYS * 86_400_000);
