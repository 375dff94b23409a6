import type { Tx } from "@/lib/db/client";
import { query } from "@/lib/db/query";
import { notFoundPayment } from "@/lib/payments/view";

// Locks the payment's row until the transaction ends (the first lock of every change to its
// allocations, so concurrent changes queue); 404 not_found when it is not this organization's.
export async function lockPayment(tx: Tx, input: { organizationId: string; paymentId: string }): Promise<void> {
  const locked = await query(tx)
    .selectFrom("payments")
    .select("id")
    .where("id", "=", input.paymentId)
    .where("organization_id", "=", input.organizationId)
    .forUpdate()
    .execute();
  if (locked.length !== 1) throw notFoundPayment();
}
