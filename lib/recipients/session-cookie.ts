import { env } from "@/lib/env";
import { httpsDeployment, isHttps, readCookie, serializeCookie } from "@/lib/http/cookies";

// The recipient session cookie. Two families (docs/recipient-portal.md):
//  - single-link: `fos_recipient`, Path=/api/v1/recipient (one link per browser);
//  - request-scoped: `fos_recipient_<request id>`, Path=/api/v1/recipient/contexts/<request id>,
//    so the cookies of two links opened in one browser never meet.
//  - account-scoped: `fos_account_<account link id>`, Path=/api/v1/recipient/accounts/<id>.
// HttpOnly, SameSite=Strict, Secure over https, Max-Age = RECIPIENT_SESSION_TTL_HOURS.
// Over https (PUBLIC_BASE_URL https, or X-Forwarded-Proto) the name carries the `__Secure-`
// prefix (a browser accepts it only with Secure from an https page). Not `__Host-`, which
// demands Path=/: the cookie stays scoped to its family's API path (docs/architecture.md, unset string fields). On an
// https deployment only the prefixed name is read (docs/security.md, "Cookies").
export type RecipientFamily = "single" | "context" | "account";

export const RECIPIENT_COOKIE = "fos_recipient";

export const recipientCookieName = (family: RecipientFamily, requestId?: string, secure = false): string =>
  `${secure ? "__Secure-" : ""}${family === "single" ? RECIPIENT_COOKIE : family === "account" ? `fos_account_${requestId}` : `${RECIPIENT_COOKIE}_${requestId}`}`;

export const recipientCookiePath = (family: RecipientFamily, requestId?: string): string =>
  family === "single" ? "/api/v1/recipient" : family === "account" ? `/api/v1/recipient/accounts/${requestId}` : `/api/v1/recipient/contexts/${requestId}`;

export const recipientSessionTtlMs = (): number => env().RECIPIENT_SESSION_TTL_HOURS * 3600_000;

export function recipientSessionCookie(req: Request, family: RecipientFamily, requestId: string, token: string): string {
  const secure = isHttps(req);
  return serializeCookie(recipientCookieName(family, requestId, secure), token, {
    path: recipientCookiePath(family, requestId),
    sameSite: "Strict",
    secure,
    maxAgeSeconds: recipientSessionTtlMs() / 1000,
  });
}

export const readRecipientCookie = (req: Request, family: RecipientFamily, requestId?: string): string | undefined =>
  readCookie(req, recipientCookieName(family, requestId, true)) ?? (httpsDeployment() ? undefined : readCookie(req, recipientCookieName(family, requestId)));
