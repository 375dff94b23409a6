import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";

export type ListResettableMembersInput = { organizationId: string };

// The active members whose account belongs to this organization alone: those for which
// the Settings page offers a password-reset link (the API checks again).
export async function listResettableMembers(tx: Tx, { organizationId }: ListResettableMembersInput): Promise<Set<string>> {
  const rows = await query(tx)
    .selectFrom("memberships as m")
    .select("m.id")
    .where("m.organization_id", "=", organizationId)
    .where("m.status", "=", "active")
    .where((eb) => eb.not(eb.exists(eb.selectFrom("memberships as o").select("o.id").whereRef("o.user_id", "=", "m.user_id").whereRef("o.id", "<>", "m.id"))))
    .execute();
  return new Set(rows.map((r) => r.id));
}
