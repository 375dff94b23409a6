import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { later, query } from "@/lib/db/query";
import { safeEqual } from "@/lib/crypto";
import { AppError, notFound } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/passwords";
import { isSoleMembership } from "@/lib/identity/sole-membership";
import type { TPasswordResetCompleteInput } from "@/lib/schemas/sessions";
import { tokenLookup } from "@/lib/auth/token-routing";

export type CompletePasswordResetInput = { id: string; body: TPasswordResetCompleteInput };

// POST /password-resets/{id}/complete: the person sets a new password; every session of the
// account ends and every other reset link of it dies. A link made by an organization is
// honoured only while the account still belongs to that organization alone (it may have
// joined another since). Unknown id or wrong token 404; used or expired 410.
export async function completePasswordReset(tx: Tx, { id, body }: CompletePasswordResetInput): Promise<void> {
  // Within the organization the token's route names (the operator's link and old links: by id alone).
  const found = tokenLookup(body.token);
  if (!found) throw notFound("password reset");
  const reset = await tx.passwordReset.findFirst({ where: found.organizationId === undefined ? { id } : { id, organizationId: found.organizationId } });
  if (!reset || !safeEqual(reset.tokenHash, found.hash)) throw notFound("password reset");
  // On Citus: after the cross-shard membership read, a write to `users` (a reference table)
  // needs sequential shard access (as in accept-invitation.ts; held back, no meaning on PostgreSQL).
  await later(tx, query(tx).selectNoFrom(raw<string>`set_config('citus.multi_shard_modify_mode', 'sequential', true)`.as("mode")));
  const stillSole = reset.organizationId === null || (await isSoleMembership(tx, { userId: reset.userId, organizationId: reset.organizationId }));
  if (reset.usedAt || reset.expiresAt <= new Date() || !stillSole) {
    throw new AppError("invitation_expired", "this password-reset link has expired or was used; ask for a new one");
  }
  const now = new Date();
  await tx.user.update({ where: { id: reset.userId }, data: { passwordHash: await hashPassword(body.new_password), passwordChangedAt: now } });
  await tx.passwordReset.updateMany({ where: { userId: reset.userId, usedAt: null }, data: { usedAt: now } });
  await tx.issuerSession.updateMany({ where: { userId: reset.userId, revokedAt: null }, data: { revokedAt: now } });
}
