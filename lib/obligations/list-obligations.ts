import type { Tx } from "@/lib/db";
import { todayUtc } from "@/lib/schemas/common";
import { loadObligationPage, organizationName, toInvoiceRecord, toObligationProjection } from "@/lib/obligations/view";

// GET /obligations: a page of obligation projections, newest first (created_at desc, id desc).
export type ListObligationsInput = { organizationId: string; query: { limit: number; offset: number } };

export async function listObligations(tx: Tx, input: ListObligationsInput) {
  const { organizationId, query: page } = input;
  const rows = await loadObligationPage(tx, organizationId, page);
  const today = todayUtc();
  return { items: rows.map((o) => toObligationProjection(o, today)), limit: page.limit, offset: page.offset };
}

// GET /invoices: a page of invoice records of obligations of type invoice.
export async function listInvoices(tx: Tx, input: ListObligationsInput) {
  const { organizationId, query: page } = input;
  const rows = await loadObligationPage(tx, organizationId, { ...page, obligationType: "invoice" });
  const orgName = await organizationName(tx, organizationId);
  const today = todayUtc();
  return { items: rows.map((o) => toInvoiceRecord(o, orgName, today)), limit: page.limit, offset: page.offset };
}
