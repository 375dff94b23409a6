import { transaction } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { issuePasswordReset } from "@/lib/identity/issue-password-reset";
import type { TLink } from "@/lib/schemas/sessions";

// The operator's `npm run admin -- reset-password --email E`: a one-time reset link for any
// account (organization_id null: no organization asked for it).
export async function createResetLink(input: { email: string }): Promise<TLink> {
  return transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { email: input.email.trim().toLowerCase() } });
    if (!user) throw new AppError("not_found", `no account has the email ${input.email}`);
    return issuePasswordReset(tx, { userId: user.id, organizationId: null });
  });
}
