import type { Tx } from "@/lib/db/client";

// How many obligations the organization has (for page counts of the list).
export type CountObligationsInput = { organizationId: string };

export async function countObligations(tx: Tx, input: CountObligationsInput): Promise<number> {
  return tx.obligation.count({ where: { organizationId: input.organizationId } });
}
