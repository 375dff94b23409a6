import type { Tx } from "@/lib/db";

// How many obligations the organization has (for page counts of the list).
export async function countObligations(tx: Tx, organizationId: string): Promise<number> {
  return tx.obligation.count({ where: { organizationId } });
}
