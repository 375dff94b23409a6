import type { Tx } from "@/lib/db";

// How many payments the organization has recorded (for page counts of the list).
export async function countPayments(tx: Tx, organizationId: string): Promise<number> {
  return tx.payment.count({ where: { organizationId } });
}
