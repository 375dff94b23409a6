import type { Tx } from "@/lib/db";

// How many payments the organization has recorded (for page counts of the list).
export type CountPaymentsInput = { organizationId: string };

export async function countPayments(tx: Tx, input: CountPaymentsInput): Promise<number> {
  return tx.payment.count({ where: { organizationId: input.organizationId } });
}
