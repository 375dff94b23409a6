import type { Tx } from "@/lib/db";
import { loadPaymentPage, toPaymentView } from "@/lib/payments/view";

// GET /payments: a page of payments with their allocations, newest first.
export type ListPaymentsInput = { organizationId: string; query: { limit: number; offset: number } };

export async function listPayments(tx: Tx, input: ListPaymentsInput) {
  const { organizationId, query: page } = input;
  const rows = await loadPaymentPage(tx, { organizationId, limit: page.limit, offset: page.offset });
  return { items: rows.map(toPaymentView), limit: page.limit, offset: page.offset };
}
