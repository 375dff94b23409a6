import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { AppError } from "@/lib/errors";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { isRole } from "@/lib/auth/permissions";
import { startSession } from "@/lib/auth/start-session";
import { resolveSession } from "@/lib/auth/resolve-session";
import { signedIn, type SignInResult } from "@/lib/auth/session-view";
import { findInvitation } from "@/lib/identity/find-invitation";
import { hasAccount } from "@/lib/identity/has-account";
import type { CountedAttempt } from "@/lib/rate-limit";

export type AcceptInvitationInput = {
  id: string;
  token: string;
  userAgent: string;
  // exactly one way of proving who accepts:
  password?: string; // a new account's password, or an existing account's current one
  sessionToken?: string; // the request's issuer session cookie: accepted if it is this account's
  verifiedEmail?: string; // single sign-on with this verified email
  attempt?: CountedAttempt; // the throttle's count of a password check (released when right)
};

// POST /invitations/{id}/accept (and single sign-on from the invitation page): the
// membership becomes active and a session starts in the inviting organization. An email
// with no account gets one with `password`; an account that exists proves it is its own
// (current password, its session, or single sign-on with its verified email): an
// organization's link never sets the password of an account that has one.
export async function acceptInvitation(tx: Tx, input: AcceptInvitationInput): Promise<SignInResult> {
  // On Citus: an old-form link's look-up and the account check read several shards, and a
  // write to `users` (a reference table) after a parallel read on several shards is refused;
  // sequential shard access for the whole transaction allows it (before the first read; a
  // setting of no meaning on plain PostgreSQL).
  await query(tx).selectNoFrom(raw<string>`set_config('citus.multi_shard_modify_mode', 'sequential', true)`.as("mode")).execute();
  const inv = await findInvitation(tx, { id: input.id, token: input.token });
  const user = inv.user;
  const role = inv.membership.role;
  if (!isRole(role)) throw new Error(`membership ${inv.membership.id} has an unknown role`);
  const existing = await hasAccount(tx, { userId: user.id });
  let method: "password" | "identity_provider" = "password";
  if (input.verifiedEmail !== undefined) {
    if (input.verifiedEmail.trim().toLowerCase() !== user.email) {
      throw new AppError("unauthenticated", "single sign-on confirmed another email address than the invitation's");
    }
    method = "identity_provider";
  } else if (input.password === undefined && input.sessionToken !== undefined) {
    const session = await resolveSession(input.sessionToken);
    if (session?.kind !== "user" || session.userId !== user.id) {
      throw new AppError("unauthenticated", "sign in as the invited account, or give its password");
    }
  } else if (!existing) {
    if (!input.password || input.password.length < 12) throw new AppError("validation_failed", "body.password: must be at least 12 characters");
    await tx.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(input.password), passwordChangedAt: new Date() } });
    await input.attempt?.release(tx);
  } else {
    if (!input.password || !(await verifyPassword(user.passwordHash, input.password))) {
      throw new AppError("unauthenticated", "the password is not this account's current password");
    }
    await input.attempt?.release(tx);
  }
  const now = new Date();
  await tx.membership.update({ where: { organizationId_id: { organizationId: inv.organizationId, id: inv.membership.id } }, data: { status: "active" } });
  await tx.invitation.update({ where: { organizationId_id: { organizationId: inv.organizationId, id: inv.id } }, data: { usedAt: now } });
  const org = await tx.organization.findUniqueOrThrow({ where: { id: inv.organizationId } });
  return signedIn(await startSession({ organizationId: org.id, userId: user.id, userAgent: input.userAgent, method }), user, org, role);
}
