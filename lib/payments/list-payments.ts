import type { Tx } from "@/lib/db";
import { loadPaymentPage, toPaymentView } from "@/lib/payments/view";

// GET /payments: a page of payments with their allocations, newest first.
export async function listPayments(tx: Tx, organizationId: string, page: { limit: number; offset: number }) {
  const rows = await loadPaymentPage(tx, organizationId, page);
  return { items: rows.map(toPaymentView), limit: page.limit, offset: page.offset };
}
