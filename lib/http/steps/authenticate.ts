import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { safeEqual } from "@/lib/crypto";
import type { AuthMode, Operation } from "@/lib/http/operation";
import type { PrincipalFor } from "@/lib/http/handler-context";
import { requestSessionToken } from "@/lib/auth/session-cookie";
import { resolveSession } from "@/lib/auth/resolve-session";
import { resolveApiKey } from "@/lib/auth/resolve-api-key";
import type { CronPrincipal, Principal } from "@/lib/auth/principal";
import { authenticateRecipient } from "@/lib/recipients/authenticate-recipient";
import { authenticateAccount } from "@/lib/account-links/authenticate-account";

// The credential by the operation's auth mode (lib/http/operation.ts), as the principal
// type the handler is declared with.
export async function authenticate<O extends Operation>(op: O, req: Request, rawParams: Record<string, string>): Promise<PrincipalFor<O>> {
  return principalFor(op, await principalOf(op, req, rawParams));
}

async function principalOf(op: Operation, req: Request, rawParams: Record<string, string>): Promise<Principal> {
  switch (op.auth) {
    case "none":
      return { kind: "anonymous" };
    case "cron":
      return authenticateCron(req);
    case "recipient":
      if (op.recipientLink === "account") return authenticateAccount(req, rawParams);
      return authenticateRecipient(op.recipientLink ?? "single")(req, rawParams);
    case "issuer":
    case "issuer_session": {
      const authz = req.headers.get("authorization");
      if (authz !== null) {
        if (op.auth === "issuer_session") {
          throw new AppError("unauthenticated", "this endpoint accepts only an issuer session, not an API key");
        }
        const token = bearerToken(authz);
        const p = token ? await resolveApiKey(token) : undefined;
        if (!p) throw apiKeyRefused();
        return p;
      }
      const token = requestSessionToken(req);
      const p = token ? await resolveSession(token) : undefined;
      if (!p) throw new AppError("unauthenticated", "sign in or send an API key (Authorization: Bearer)");
      return p;
    }
  }
}

const KINDS: Record<AuthMode, readonly Principal["kind"][]> = {
  issuer: ["api_key", "user"],
  issuer_session: ["user"],
  recipient: ["recipient"],
  cron: ["cron"],
  none: ["anonymous"],
};

// A principal as the kind its operation's auth mode promises the handler (checked, not cast).
export function principalFor<O extends Operation>(op: O, p: Principal): PrincipalFor<O> {
  if (!isPrincipalFor(op, p)) throw new Error(`a ${p.kind} principal for an operation with auth ${op.auth}`);
  return p;
}

function isPrincipalFor<O extends Operation>(op: O, p: Principal): p is PrincipalFor<O> {
  return KINDS[op.auth].includes(p.kind);
}

// The token of `Authorization: Bearer <token>` (API keys, CRON_SECRET).
export function bearerToken(authorization: string | null): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
}

export const apiKeyRefused = () => new AppError("unauthenticated", "the API key is missing, unknown or revoked");

// For a scheduler holding CRON_SECRET: while none is configured the endpoint does not
// exist (404); any other credential is 401.
function authenticateCron(req: Request): CronPrincipal {
  const secret = env().CRON_SECRET;
  if (!secret) throw new AppError("not_found", "no such endpoint");
  const token = bearerToken(req.headers.get("authorization"));
  if (!token || !safeEqual(token, secret)) throw new AppError("unauthenticated", "send Authorization: Bearer <CRON_SECRET>");
  return { kind: "cron" };
}
