import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { burnPasswordCheck, verifyPassword } from "@/lib/auth/passwords";
import { countPasswordCheck } from "@/lib/auth/count-password-check";
import { sessionMembership } from "@/lib/auth/session-membership";
import { startSession } from "@/lib/auth/start-session";
import { signedIn, type SignInResult } from "@/lib/auth/session-view";
import type { TLoginInput } from "@/lib/schemas/sessions";

export type SignInInput = { body: TLoginInput; clientIp: string; userAgent: string };

// POST /session: argon2id check, throttled per email and per client address, session token
// stored as SHA-256 only, in `organization_id` or the organization used last. The route
// runs it without a transaction (`tx` is the plain client) so that a failed attempt's count
// is kept although it throws.
export async function signIn(tx: Tx, { body: input, clientIp, userAgent }: SignInInput): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const attempt = await countPasswordCheck({ email, clientIp, message: "too many failed sign-in attempts; try again later" });
  const user = await tx.user.findUnique({ where: { email } });
  // an unknown email costs the same time as a wrong password
  let ok = false;
  if (user) ok = await verifyPassword(user.passwordHash, input.password);
  else await burnPasswordCheck(input.password);
  // a refusal keeps its attempt counted
  if (!ok || !user) throw new AppError("unauthenticated", "email or password is incorrect");
  const membership = await sessionMembership(tx, { userId: user.id, organizationId: input.organization_id });
  if (!membership && input.organization_id) {
    // the password was right: only its holder learns that the organization is not theirs
    await attempt.release();
    throw new AppError("not_found", "organization not found among this account's organizations");
  }
  if (!membership) throw new AppError("unauthenticated", "email or password is incorrect");
  const started = await startSession({ organizationId: membership.organizationId, userId: user.id, userAgent, method: "password" });
  await attempt.release();
  return signedIn(started, user, { id: membership.organizationId, name: membership.organizationName }, membership.role);
}
