import type { Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import type { UserPrincipal } from "@/lib/auth/principal";
import type { CountedAttempt } from "@/lib/rate-limit";

// POST /session/password. Its check of current_password is counted against the email's
// sign-in throttle before the request's transaction opens (the route's `countAttempt`), so
// that the count outlives the refusal, which rolls that transaction back. Changing a
// password revokes every session of the user, this one included.
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
