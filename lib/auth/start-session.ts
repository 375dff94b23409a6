import { db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { randomToken } from "@/lib/crypto";
import { newId } from "@/lib/ids";
import { routedToken, routedTokenHash } from "@/lib/auth/token-routing";

export type StartSessionInput = {
  organizationId: string;
  userId: string;
  userAgent: string;
  method: "password" | "identity_provider";
};

// Password, identity-provider, invitation and organization-switch sign-ins end here alike:
// one revocable row per session, the token stored as SHA-256 only; the token names its
// organization (`<route>.<secret>`, lib/auth/token-routing.ts). Written on the plain
// client, or on the caller's transaction when it passes one (same connection either way).
export async function startSession(input: StartSessionInput): Promise<{ token: string; expiresAt: Date }> {
  const secret = randomToken(32);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + env().SESSION_TTL_HOURS * 3600_000);
  await db().issuerSession.create({
    data: {
      id: newId(),
      organizationId: input.organizationId,
      userId: input.userId,
      tokenHash: routedTokenHash("", secret),
      expiresAt,
      lastSeenAt: now,
      userAgent: input.userAgent.slice(0, 300),
      method: input.method,
    },
  });
  return { token: routedToken("", input.organizationId, secret), expiresAt };
}
