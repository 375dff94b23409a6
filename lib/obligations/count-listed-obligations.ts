import type { Tx } from "@/lib/db/client";
import { listWhere, type ObligationListQuery } from "@/lib/obligations/list-obligations";

// How many obligations a filtered list has (page counts of the dashboard list), with the
// same WHERE clause as GET /obligations.
export type CountListedObligationsInput = { organizationId: string; query: Omit<ObligationListQuery, "limit" | "offset">; today?: string };

export async function countListedObligations(tx: Tx, input: CountListedObligationsInput): Promise<number> {
  const rows = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM obligations WHERE ${listWhere(input.organizationId, { ...input.query, limit: 0, offset: 0 }, input.today)}`;
  return rows[0]?.n ?? 0;
}
