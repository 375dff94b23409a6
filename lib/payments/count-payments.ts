import { sql, type Tx } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { paymentFilterSql, type PaymentFilter } from "@/lib/payments/payment-filter";

// How many payments the organization has recorded (for page counts of the list), with the
// list's filter when it has one.
export type CountPaymentsInput = { organizationId: string; filter?: PaymentFilter };

export async function countPayments(tx: Tx, input: CountPaymentsInput): Promise<number> {
  if (!input.filter) return tx.payment.count({ where: { organizationId: input.organizationId } });
  const q = Prisma.sql`SELECT count(*)::int AS n FROM payments p WHERE p.organization_id = ${input.organizationId}::uuid${paymentFilterSql(input.filter)}`;
  return (await sql<{ n: number }>(tx, q.text, q.values))[0].n;
}
