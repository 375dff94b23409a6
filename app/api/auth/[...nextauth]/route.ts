import NextAuth, { type AuthOptions } from "next-auth";
import { cookies, headers } from "next/headers";
import { createHmac } from "node:crypto";
import { appSecret, oidcConfig, publicBaseUrl } from "@/lib/env";
import { logger } from "@/lib/log";
import { ssoSignIn, type SsoProfile } from "@/lib/auth/sso";
import { SESSION_COOKIE_PLAIN, sessionCookieName } from "@/lib/auth/session-cookie";
import { redirectTarget } from "@/lib/auth/redirect-target";
import { SSO_INVITATION_COOKIE, parseInvitationCookie } from "@/lib/auth/sso-invitation";

// next-auth drives only the OpenID Connect redirect, callback and code exchange (state,
// nonce and PKCE checked by next-auth/openid-client). The signIn callback creates the
// service's own database session and redirects: next-auth never issues its own session,
// so there is one source of truth and sign-out, role changes and removal apply at once.
function options(): AuthOptions {
  const c = oidcConfig();
  return {
    secret: createHmac("sha256", appSecret()).update("next-auth").digest("hex"),
    providers: c
      ? [
          {
            id: "oidc",
            name: c.name,
            type: "oauth",
            wellKnown: `${c.issuer}/.well-known/openid-configuration`,
            clientId: c.clientId,
            clientSecret: c.clientSecret,
            idToken: true,
            checks: ["pkce", "state", "nonce"],
            authorization: { params: { scope: "openid email profile" } },
            profile: (p: Record<string, unknown>) => ({ id: String(p.sub), email: typeof p.email === "string" ? p.email : null, name: null }),
          },
        ]
      : [],
    session: { strategy: "jwt", maxAge: 60 },
    // Every page next-auth would render itself goes to /login (which carries the dashboard's
    // Content-Security-Policy): next-auth never answers with HTML of its own.
    pages: { signIn: "/login", error: "/login", signOut: "/login", verifyRequest: "/login", newUser: "/login" },
    useSecureCookies: publicBaseUrl().startsWith("https:"),
    callbacks: {
      async signIn({ profile }) {
        const ua = (await headers()).get("user-agent") ?? "";
        // Set by the invitation page (/invite/{id}) before it starts single sign-on.
        const jar = await cookies();
        const invitation = parseInvitationCookie(jar.get(SSO_INVITATION_COOKIE)?.value);
        if (invitation) jar.set(SSO_INVITATION_COOKIE, "", { path: "/api/auth", maxAge: 0 });
        const r = await ssoSignIn((profile ?? {}) as SsoProfile, ua, invitation);
        if (!r.ok) {
          logger().info({ reason: r.reason }, "single sign-on refused");
          return `/login?sso=${r.reason}`;
        }
        const secure = publicBaseUrl().startsWith("https:");
        if (secure && jar.get(SESSION_COOKIE_PLAIN)) jar.delete(SESSION_COOKIE_PLAIN); // lib/auth/session-cookie.ts
        jar.set(sessionCookieName(secure), r.token, {
          path: "/",
          httpOnly: true,
          sameSite: "strict",
          secure,
          maxAge: Math.floor((r.expiresAt.getTime() - Date.now()) / 1000),
        });
        // The cookie is SameSite=Strict like a password sign-in's, so it is not sent on the
        // rest of this redirect chain (it started at the provider): the login page finishes
        // with a same-site navigation to the dashboard.
        return "/login?sso=complete";
      },
      redirect: ({ url, baseUrl }) => redirectTarget(url, baseUrl),
    },
    // Codes only: next-auth's error metadata can carry provider responses.
    logger: {
      error: (code) => logger().warn({ code }, "single sign-on error"),
      warn: (code) => logger().warn({ code }, "single sign-on warning"),
      debug: () => {},
    },
  };
}

async function route(req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) {
  if (!oidcConfig()) return Response.json({ error: { code: "not_found", message: "single sign-on is not configured" } }, { status: 404 });
  process.env.NEXTAUTH_URL ??= `${publicBaseUrl()}/api/auth`;
  return NextAuth(req as never, ctx as never, options());
}

export { route as GET, route as POST };
