import { httpsDeployment, isHttps, readCookie, serializeCookie } from "@/lib/http/cookies";

// The issuer session cookie (docs/security.md, "Cookies"): `__Host-fos_session` whenever the
// request is served over https (PUBLIC_BASE_URL https, or X-Forwarded-Proto) — Secure, Path=/,
// no Domain, so no sibling host or plain-http page can set or shadow it — and `fos_session`
// on plain http, where a browser refuses a `__Host-` cookie. The plain name is read only when
// the deployment is not https: after an upgrade to https, a browser's old `fos_session` is
// no credential (its holder signs in again) and sign-in and sign-out expire it.
export const SESSION_COOKIE_HTTPS = "__Host-fos_session";
export const SESSION_COOKIE_PLAIN = "fos_session";

export const sessionCookieName = (secure: boolean) => (secure ? SESSION_COOKIE_HTTPS : SESSION_COOKIE_PLAIN);

// The session token a request carries, by a cookie reader (a Request's header, or next/headers' cookies()).
export function sessionTokenFrom(read: (name: string) => string | undefined): string | undefined {
  return read(SESSION_COOKIE_HTTPS) ?? (httpsDeployment() ? undefined : read(SESSION_COOKIE_PLAIN));
}

export const requestSessionToken = (req: Request) => sessionTokenFrom((name) => readCookie(req, name));

// Set-Cookie values that set (or, with maxAgeSeconds 0, clear) the session; over https they
// also expire a plain `fos_session` left from before.
export function sessionSetCookies(req: Request, value: string, maxAgeSeconds: number): string[] {
  const secure = isHttps(req);
  const out = [serializeCookie(sessionCookieName(secure), value, { path: "/", sameSite: "Strict", secure, maxAgeSeconds })];
  if (secure && readCookie(req, SESSION_COOKIE_PLAIN) !== undefined) {
    out.push(serializeCookie(SESSION_COOKIE_PLAIN, "", { path: "/", sameSite: "Strict", secure, maxAgeSeconds: 0 }));
  }
  return out;
}
