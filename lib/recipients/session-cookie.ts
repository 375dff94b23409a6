import { env } from "@/lib/env";
import { isHttps, readCookie, serializeCookie } from "@/lib/http/cookies";

// The recipient session cookie. Two families (docs/recipient-portal.md):
//  - single-link: `fos_recipient`, Path=/api/v1/recipient (one link per browser);
//  - request-scoped: `fos_recipient_<request id>`, Path=/api/v1/recipient/contexts/<request id>,
//    so the cookies of two links opened in one browser never meet.
// HttpOnly, SameSite=Strict, Secure over https, Max-Age = RECIPIENT_SESSION_TTL_HOURS.
export type RecipientFamily = "single" | "context";

export const RECIPIENT_COOKIE = "fos_recipient";

export const recipientCookieName = (family: RecipientFamily, requestId?: string): string =>
  family === "single" ? RECIPIENT_COOKIE : `${RECIPIENT_COOKIE}_${requestId}`;

export const recipientCookiePath = (family: RecipientFamily, requestId?: string): string =>
  family === "single" ? "/api/v1/recipient" : `/api/v1/recipient/contexts/${requestId}`;

export const recipientSessionTtlMs = (): number => env().RECIPIENT_SESSION_TTL_HOURS * 3600_000;

export function recipientSessionCookie(req: Request, family: RecipientFamily, requestId: string, token: string): string {
  return serializeCookie(recipientCookieName(family, requestId), token, {
    path: recipientCookiePath(family, requestId),
    sameSite: "Strict",
    secure: isHttps(req),
    maxAgeSeconds: recipientSessionTtlMs() / 1000,
  });
}

export const readRecipientCookie = (req: Request, family: RecipientFamily, requestId?: string): string | undefined =>
  readCookie(req, recipientCookieName(family, requestId));
