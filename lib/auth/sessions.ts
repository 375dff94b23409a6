import { db, type Tx } from "@/lib/db";
import { env } from "@/lib/env";
import { randomToken, sha256Hex } from "@/lib/crypto";
import { newId } from "@/lib/ids";
import { AppError } from "@/lib/errors";
import { burnPasswordCheck, hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { isRole } from "@/lib/auth/permissions";
import type { IssuerPrincipal, UserPrincipal } from "@/lib/auth/principal";
import { reserveAttempt, type CountedAttempt } from "@/lib/rate-limit";
import type { TLoginInput, TSession } from "@/lib/schemas/sessions";

export type SignInResult = { token: string; expiresAt: Date; body: TSession };

export type SignInInput = { body: TLoginInput; clientIp: string; userAgent: string };

// Throttling of password checks (docs/administration.md, "Sign-in throttling"), in the
// database so that every instance shares the counts: per email, LOGIN_MAX_FAILURES checks
// per LOGIN_WINDOW_SECONDS window that did not succeed, sign-in and password change
// together (a stolen session cookie must not open a second, unthrottled way to guess the
// password); per client address, 20 times that for sign-in.
// Each check is counted BEFORE argon2 runs and taken back when the password was right:
// counting failures only after the check let a burst of concurrent attempts all pass a
// count read before any was recorded.
const emailBucket = (email: string) => `login:email:${sha256Hex(email.trim().toLowerCase())}`;

async function countPasswordCheck(buckets: { key: string; limit: number }[], message: string): Promise<CountedAttempt> {
  const taken: CountedAttempt[] = [];
  for (const { key, limit } of buckets) {
    const r = await reserveAttempt(key, env().LOGIN_WINDOW_SECONDS, limit);
    if (!r.granted) {
      // refused by a later bucket: the earlier ones did not see a check either
      for (const t of taken) await t.release();
      throw new AppError("rate_limited", message, { headers: { "Retry-After": String(r.retryAfterSeconds) } });
    }
    taken.push(r);
  }
  return {
    release: async (q) => {
      for (const t of taken) await t.release(q);
    },
  };
}

// POST /session: argon2id check, throttled per email and per client address, session token
// stored as SHA-256 only. The route runs it without a transaction (`tx` is the plain client)
// so that a failed attempt's count is kept although it throws.
export async function signIn(tx: Tx, { body: input, clientIp, userAgent }: SignInInput): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const { LOGIN_MAX_FAILURES } = env();
  const attempt = await countPasswordCheck(
    [
      { key: emailBucket(email), limit: LOGIN_MAX_FAILURES },
      { key: `login:ip:${clientIp}`, limit: LOGIN_MAX_FAILURES * 20 },
    ],
    "too many failed sign-in attempts; try again later",
  );
  const user = await tx.user.findUnique({
    where: { email },
    include: { memberships: { include: { organization: true }, orderBy: { createdAt: "asc" } } },
  });
  // an unknown email costs the same time as a wrong password
  let ok = false;
  if (user) ok = await verifyPassword(user.passwordHash, input.password);
  else await burnPasswordCheck(input.password);
  const membership = user?.memberships[0];
  // a refusal keeps its attempt counted
  if (!ok || !user || !membership || !isRole(membership.role)) throw new AppError("unauthenticated", "email or password is incorrect");
  const { token, expiresAt } = await startSession({ organizationId: membership.organizationId, userId: user.id, userAgent, method: "password" });
  await attempt.release();
  return {
    token,
    expiresAt,
    body: {
      user: { id: user.id, email: user.email, name: user.name },
      organization: { id: membership.organization.id, name: membership.organization.name },
      role: membership.role,
      expires_at: expiresAt.toISOString(),
    },
  };
}

// Password and identity-provider sign-in end here alike: one revocable row per session,
// the token stored as SHA-256 only.
export async function startSession(input: {
  organizationId: string;
  userId: string;
  userAgent: string;
  method: "password" | "identity_provider";
}): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(32);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + env().SESSION_TTL_HOURS * 3600_000);
  await db().issuerSession.create({
    data: {
      id: newId(),
      organizationId: input.organizationId,
      userId: input.userId,
      tokenHash: sha256Hex(token),
      expiresAt,
      lastSeenAt: now,
      userAgent: input.userAgent.slice(0, 300),
      method: input.method,
    },
  });
  return { token, expiresAt };
}

// last_seen_at is refreshed at most once a minute per session, so a busy dashboard does
// not turn every read into a write.
const LAST_SEEN_GRANULARITY_MS = 60_000;

export async function resolveSession(token: string): Promise<IssuerPrincipal | undefined> {
  // The session, the member's role and user, and the organization's name: one round trip.
  const rows = await db().$queryRaw<
    {
      id: string;
      organization_id: string;
      organization_name: string;
      user_id: string;
      expires_at: Date;
      revoked_at: Date | null;
      last_seen_at: Date | null;
      role: string;
      email: string;
      name: string;
    }[]
  >`
    SELECT s.id::text, s.organization_id::text, o.name AS organization_name, s.user_id::text, s.expires_at, s.revoked_at, s.last_seen_at,
      m.role, u.email, u.name
    FROM issuer_sessions s
      JOIN memberships m ON m.organization_id = s.organization_id AND m.user_id = s.user_id
      JOIN users u ON u.id = s.user_id
      JOIN organizations o ON o.id = s.organization_id
    WHERE s.token_hash = ${sha256Hex(token)}`;
  const session = rows[0];
  if (!session || session.revoked_at || session.expires_at <= new Date() || !isRole(session.role)) return undefined;
  if (!session.last_seen_at || Date.now() - session.last_seen_at.getTime() > LAST_SEEN_GRANULARITY_MS) {
    await db().issuerSession.update({ where: { id: session.id }, data: { lastSeenAt: new Date() } });
  }
  return {
    kind: "user",
    organizationId: session.organization_id,
    organizationName: session.organization_name,
    userId: session.user_id,
    sessionId: session.id,
    role: session.role,
    email: session.email,
    name: session.name,
  };
}

export type SessionInput = { principal: UserPrincipal };

export async function describeSession(tx: Tx, { principal: p }: SessionInput): Promise<TSession> {
  const [session, org] = await Promise.all([
    tx.issuerSession.findUniqueOrThrow({ where: { id: p.sessionId } }),
    tx.organization.findUniqueOrThrow({ where: { id: p.organizationId } }),
  ]);
  return {
    user: { id: p.userId, email: p.email, name: p.name },
    organization: { id: org.id, name: org.name },
    role: p.role,
    expires_at: session.expiresAt.toISOString(),
  };
}

export async function signOut(tx: Tx, { principal }: SessionInput): Promise<void> {
  await tx.issuerSession.updateMany({ where: { id: principal.sessionId, revokedAt: null }, data: { revokedAt: new Date() } });
}

// POST /session/password counts its check of current_password against the email's
// sign-in throttle before the request's transaction opens (the route's `countAttempt`), so
// that the count outlives the refusal, which rolls that transaction back.
export function countPasswordChangeAttempt(p: UserPrincipal): Promise<CountedAttempt> {
  return countPasswordCheck([{ key: emailBucket(p.email), limit: env().LOGIN_MAX_FAILURES }], "too many failed password attempts; try again later");
}

// Changing a password revokes every session of the user, this one included.
export type ChangePasswordInput = { principal: UserPrincipal; attempt: CountedAttempt; current_password: string; new_password: string };

export async function changePassword(tx: Tx, { principal: p, attempt, ...input }: ChangePasswordInput): Promise<void> {
  const user = await tx.user.findUniqueOrThrow({ where: { id: p.userId } });
  if (!(await verifyPassword(user.passwordHash, input.current_password))) {
    throw new AppError("validation_failed", "current_password: is incorrect");
  }
  const now = new Date();
  await tx.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(input.new_password), passwordChangedAt: now } });
  await tx.issuerSession.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: now } });
  await attempt.release(tx);
}
