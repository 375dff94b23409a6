import type { Tx } from "@/lib/db/client";

// Which of these obligations (of this organization) a live cancellation settled wholly
// (cancelled, nothing paid): the dashboard shows them as "Cancelled" instead of their status.
export type ListCancelledIdsInput = { organizationId: string; ids: string[] };

export async function listCancelledIds(tx: Tx, input: ListCancelledIdsInput): Promise<Set<string>> {
  if (input.ids.length === 0) return new Set();
  const rows = await tx.obligation.findMany({
    where: {
      organizationId: input.organizationId,
      id: { in: input.ids },
      cancelledAt: { not: null },
      creditedMinor: { equals: tx.obligation.fields.amountMinor },
    },
    select: { id: true },
  });
  return new Set(rows.map((r) => r.id));
}
