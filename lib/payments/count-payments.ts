import type { Tx } from "@/lib/db/client";
import { sql as raw } from "kysely";
import { query } from "@/lib/db/query";
import { paymentFilterCondition, type PaymentFilter } from "@/lib/payments/payment-filter";

// How many payments the organization has recorded (for page counts of the list), with the
// list's filter when it has one.
export type CountPaymentsInput = { organizationId: string; filter?: PaymentFilter };

export async function countPayments(tx: Tx, input: CountPaymentsInput): Promise<number> {
  const condition = input.filter && paymentFilterCondition(input.filter);
  if (!condition) return tx.payment.count({ where: { organizationId: input.organizationId } });
  const [row] = await query(tx)
    .selectFrom("payments as p")
    .select(raw<number>`count(*)::int`.as("n"))
    .where("p.organization_id", "=", input.organizationId)
    .where(condition)
    .execute();
  return row.n;
}
