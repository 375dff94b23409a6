import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";

// The unique index of migration 0030 that lets an external reference name one live obligation per organization.
export const LIVE_REFERENCE_INDEX = "obligations_live_external_reference_key";

// The live obligation holding an external reference in the organization (the rows of
// LIVE_REFERENCE_INDEX: not cancelled, not a twin older than the index, not an invoice's
// default reference { invoice, invoice_number }), other than `except`; null when none.
export async function findReferenceHolder(tx: Tx, input: { organizationId: string; namespace: string; id: string; except?: string }): Promise<string | null> {
  let q = query(tx)
    .selectFrom("obligations")
    .select("id")
    .where("organization_id", "=", input.organizationId)
    .where("external_namespace", "=", input.namespace)
    .where("external_id", "=", input.id)
    .where("cancelled_at", "is", null)
    .where("duplicate_of", "is", null)
    .where((eb) =>
      eb.not(eb.and([eb("obligation_type", "=", "invoice"), eb("external_namespace", "=", "invoice"), eb("external_id", "=", eb.ref("invoice_number"))])),
    );
  if (input.except) q = q.where("id", "<>", input.except);
  const row = await q.orderBy("created_at").limit(1).executeTakeFirst();
  return row?.id ?? null;
}
