import { isHttps, serializeCookie } from "@/lib/http/cookies";

export const SESSION_COOKIE = "fos_session";

// The issuer session's Set-Cookie value (HttpOnly, SameSite=Strict); "" with 0 clears it.
export function sessionCookie(req: Request, value: string, maxAgeSeconds: number): string {
  return serializeCookie(SESSION_COOKIE, value, { path: "/", sameSite: "Strict", secure: isHttps(req), maxAgeSeconds });
}
