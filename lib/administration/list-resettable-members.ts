import { sql, type Tx } from "@/lib/db/client";

export type ListResettableMembersInput = { organizationId: string };

// The active members whose account belongs to this organization alone: those for which
// the Settings page offers a password-reset link (the API checks again).
export async function listResettableMembers(tx: Tx, { organizationId }: ListResettableMembersInput): Promise<Set<string>> {
  const rows = await sql<{ id: string }>(
    tx,
    `SELECT m.id::text FROM memberships m
     WHERE m.organization_id = $1::uuid AND m.status = 'active'
       AND NOT EXISTS (SELECT 1 FROM memberships o WHERE o.user_id = m.user_id AND o.id <> m.id)`,
    [organizationId],
  );
  return new Set(rows.map((r) => r.id));
}
