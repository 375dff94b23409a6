import { hmacBase64Url, sha256Hex } from "@/lib/crypto";
import { publicBaseUrl } from "@/lib/env";
import { routedToken } from "@/lib/auth/token-routing";

// Account links (docs/recipient-portal.md "Account link"): the token is derived as
// HMAC-SHA256(APP_SECRET, link id), like a payment request's, so a copy of the database alone
// yields no working link; only SHA-256(token) is stored. Reissuing makes a new link (new id).
// The hosted URL's token names the organization (`<route>.<derived>`, lib/auth/token-routing.ts)
// over the same stored hash, so links handed out before routing keep working.
// Never log a token or a hosted URL.
export const ACCOUNT_LINK_TTL_DAYS = 90;

export const accountToken = (linkId: string): string => hmacBase64Url("account-link-token", linkId);

export const accountTokenHash = (token: string): string => sha256Hex(token);

export const accountHostedUrl = (organizationId: string, linkId: string): string =>
  `${publicBaseUrl()}/a/${linkId}#${routedToken("", organizationId, accountToken(linkId))}`;
