import { db, transaction, type Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";

// Calls without an Idempotency-Key get the plain client from the pipeline; the checks
// and writes of an administration change must still commit or fail together.
export function atomically<T>(tx: Tx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return tx === db() ? transaction(fn) : fn(tx);
}

// Serialises membership changes of one organization (the last-owner rule reads the
// owners, then writes): two concurrent demotions cannot both see "another owner left".
export type LockOrganizationInput = { organizationId: string };

export async function lockOrganization(tx: Tx, { organizationId }: LockOrganizationInput): Promise<void> {
  await query(tx).selectFrom("organizations").select("id").where("id", "=", organizationId).forUpdate().execute();
}
