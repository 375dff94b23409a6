import type { Tx } from "@/lib/db/client";

export type HasAccountInput = { userId: string };

// Whether a user row is someone's account already: it has a password, or it belongs to an
// organization (single sign-on only). A row made for an invitation that nobody accepted
// yet is not: its first acceptance sets the password.
export async function hasAccount(tx: Tx, { userId }: HasAccountInput): Promise<boolean> {
  const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { passwordHash: true } });
  if (user.passwordHash !== "") return true;
  return (await tx.membership.count({ where: { userId, status: "active" } })) > 0;
}
