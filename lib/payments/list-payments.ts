import type { Tx } from "@/lib/db/client";
import { loadPaymentPage, toPaymentView } from "@/lib/payments/view";
import { paymentFilterCondition, type PaymentFilter } from "@/lib/payments/payment-filter";

// GET /payments: a page of payments with their allocations, newest first; the dashboard's
// list may narrow it (`filter`: search and status).
export type ListPaymentsInput = { organizationId: string; query: { limit: number; offset: number }; filter?: PaymentFilter };

export async function listPayments(tx: Tx, input: ListPaymentsInput) {
  const { organizationId, query: page } = input;
  const filter = input.filter && paymentFilterCondition(input.filter);
  const rows = await loadPaymentPage(tx, { organizationId, limit: page.limit, offset: page.offset, filter });
  return { items: rows.map(toPaymentView), limit: page.limit, offset: page.offset };
}
