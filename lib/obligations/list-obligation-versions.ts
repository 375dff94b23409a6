import type { Tx } from "@/lib/db/client";

// The current version of each of these obligations (of this organization), for a page whose
// controls send an obligation's expected_version without showing the obligation (a payment's
// allocations and their reversal).
export type ListObligationVersionsInput = { organizationId: string; ids: string[] };

export async function listObligationVersions(tx: Tx, input: ListObligationVersionsInput): Promise<Record<string, number>> {
  if (input.ids.length === 0) return {};
  const rows = await tx.obligation.findMany({ where: { organizationId: input.organizationId, id: { in: input.ids } }, select: { id: true, version: true } });
  return Object.fromEntries(rows.map((r) => [r.id, r.version]));
}
