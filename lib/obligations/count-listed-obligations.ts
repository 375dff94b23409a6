import { sql as raw } from "kysely";
import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { listParams, listWhere, type ObligationListQuery } from "@/lib/obligations/list-obligations";

// How many obligations a filtered list has (page counts of the dashboard list), with the
// same WHERE clause as GET /obligations.
export type CountListedObligationsInput = { organizationId: string; query: Omit<ObligationListQuery, "limit" | "offset">; today?: string };

export async function countListedObligations(tx: Tx, input: CountListedObligationsInput): Promise<number> {
  const p = listParams(input.organizationId, input.query, input.today);
  const [row] = await query(tx)
    .selectFrom("obligations")
    .select(raw<number>`count(*)::int`.as("n"))
    .where((eb) => listWhere(eb, input.query, p))
    .execute();
  return row?.n ?? 0;
}
