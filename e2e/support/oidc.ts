import type { Server } from "node:http";
import Provider from "oidc-provider";

export type OidcAccount = { email: string; email_verified: boolean };

// A real, certified OpenID Provider (oidc-provider) on loopback for the single sign-on
// tests. Its development login form accepts any login: the login names the account.
export async function startOidcProvider(opts: {
  port: number;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  accounts: Record<string, OidcAccount>;
}): Promise<{ issuer: string; stop: () => Promise<void> }> {
  const issuer = `http://127.0.0.1:${opts.port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        redirect_uris: [opts.redirectUri],
        response_types: ["code"],
        grant_types: ["authorization_code"],
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    // The ID token carries the email claims (next-auth reads the ID token's claims).
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, id: string) => {
      const a = opts.accounts[id];
      if (!a) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, email: a.email, email_verified: a.email_verified }) };
    },
    cookies: { keys: ["oidc-test-cookie-key-0123456789abcdef"] },
    features: { devInteractions: { enabled: true } },
  } as never);
  const server: Server = await new Promise((resolve) => {
    const s = provider.listen(opts.port, "127.0.0.1", () => resolve(s));
  });
  return { issuer, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
