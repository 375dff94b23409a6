import type { Tx } from "@/lib/db/client";
import { publicBaseUrl } from "@/lib/env";
import { randomToken } from "@/lib/crypto";
import { newId } from "@/lib/ids";
import type { TLink } from "@/lib/schemas/sessions";
import { routedToken, routedTokenHash } from "@/lib/auth/token-routing";

export const PASSWORD_RESET_TTL_MS = 3600_000;

// organizationId: the organization whose owner or admin asked (null: the operator's CLI).
export type IssuePasswordResetInput = { userId: string; organizationId: string | null };

// A one-time password-reset link, valid 1 hour; the token in the fragment only, stored as
// SHA-256. A link made by an organization names it (`<route>.<secret>`,
// lib/auth/token-routing.ts); the operator's (no organization) has no route.
export async function issuePasswordReset(tx: Tx, input: IssuePasswordResetInput): Promise<TLink> {
  const id = newId();
  const secret = randomToken(32);
  const token = input.organizationId === null ? secret : routedToken("", input.organizationId, secret);
  const expiresAt = new Date(Date.now() + PASSWORD_RESET_TTL_MS);
  await tx.passwordReset.create({ data: { id, ...input, tokenHash: routedTokenHash("", secret), expiresAt } });
  return { url: `${publicBaseUrl()}/password-reset/${id}#${token}`, expires_at: expiresAt.toISOString() };
}
