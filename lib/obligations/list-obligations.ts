import { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { todayUtc } from "@/lib/schemas/common";
import type { TObligationListQuery } from "@/lib/schemas/obligations";
import { loadObligationPage, toInvoiceRecord } from "@/lib/obligations/view";
import { loadProjectionsPicked } from "@/lib/obligations/stored-projection";

// The query is the API's (every filter optional); the dashboard and GET /invoices pass a page.
// `currencyFirst` (the dashboard's list, not the API): amounts of different currencies are
// not comparable, so a sort by amount or outstanding groups by currency (A-Z) first.
export type ObligationListQuery = Partial<Omit<TObligationListQuery, "limit" | "offset">> & { limit: number; offset: number; currencyFirst?: boolean };
export type ListObligationsInput = { organizationId: string; query: ObligationListQuery };

// The searchable text of an obligation: the fields a person looks an obligation up by,
// joined with a unit separator (a term cannot span two fields). Migration 0011 indexes
// exactly this expression with pg_trgm, so `ILIKE '%term%'` is an index scan.
export const SEARCH_TEXT_SQL =
  "(reference || E'\\x1f' || invoice_number || E'\\x1f' || creditor_name || E'\\x1f' || creditor_email || E'\\x1f' || debtor_name || E'\\x1f' || debtor_email || E'\\x1f' || external_id || E'\\x1f' || payment_reference)";

// LIKE pattern for a case-insensitive substring match; the user's % _ and \ are literal.
const containsPattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// An RF reference is often written in groups of four ("RF18 5390 0754 7034"); it is stored
// without spaces.
const searchTerm = (s: string) => {
  const compact = s.replace(/\s+/g, "");
  return /^RF\d{2}[0-9A-Z]+$/i.test(compact) ? compact : s;
};

// Sort keys: each is an indexed column (migration 0011), ties broken by id.
export const SORT_SQL: Record<TObligationListQuery["sort"], string> = {
  created_at: "created_at",
  updated_at: "updated_at",
  deadline: "deadline",
  amount: "amount_minor",
  outstanding: "(amount_minor - allocated_minor)",
};

// WHERE clause of a filtered list: organization first (every index leads with it).
export function listWhere(organizationId: string, q: ObligationListQuery, today = todayUtc()): Prisma.Sql {
  const where: Prisma.Sql[] = [Prisma.sql`organization_id = ${organizationId}::uuid`];
  if (q.status?.length) where.push(Prisma.sql`status IN (${Prisma.join(q.status)})`);
  if (q.role) where.push(Prisma.sql`organization_role = ${q.role}`);
  if (q.type?.length) where.push(Prisma.sql`obligation_type IN (${Prisma.join(q.type)})`);
  if (q.currency) where.push(Prisma.sql`currency = ${q.currency}`);
  if (q.overdue === true) where.push(Prisma.sql`(deadline < ${today}::date AND status <> 'RECONCILED')`);
  if (q.overdue === false) where.push(Prisma.sql`NOT (deadline < ${today}::date AND status <> 'RECONCILED')`);
  if (q.context_id) {
    where.push(Prisma.sql`id IN (SELECT obligation_id FROM obligation_context_links
      WHERE organization_id = ${organizationId}::uuid AND context_id = ${q.context_id}::uuid)`);
  }
  if (q.search) where.push(Prisma.sql`${Prisma.raw(SEARCH_TEXT_SQL)} ILIKE ${containsPattern(searchTerm(q.search))}`);
  return Prisma.join(where, " AND ");
}

export function listOrder(q: ObligationListQuery): Prisma.Sql {
  const sort = q.sort ?? "created_at";
  const dir = (q.direction ?? (sort === "deadline" ? "asc" : "desc")) === "asc" ? "ASC" : "DESC";
  const byCurrency = q.currencyFirst && !q.currency && (sort === "amount" || sort === "outstanding") ? "currency ASC, " : "";
  return Prisma.raw(`${byCurrency}${SORT_SQL[sort]} ${dir}, id ${dir}`);
}

// GET /obligations: a page of obligation projections, filtered, searched and sorted in SQL,
// as JSON text: one statement picks the page's ids with their stored projections
// (lib/obligations/stored-projection.ts); only obligations without a valid one are loaded
// and computed. Without filters the order is the original one: newest first (created_at
// desc, id desc). Callers that read the items rather than send them use `.parse()`.
export async function listObligations(tx: Tx, input: ListObligationsInput) {
  const { organizationId, query: q } = input;
  const page = { limit: q.limit, offset: q.offset };
  const today = todayUtc();
  const items = await loadProjectionsPicked(tx, {
    organizationId,
    today,
    pick: Prisma.sql`SELECT id FROM obligations WHERE ${listWhere(organizationId, q, today)} ORDER BY ${listOrder(q)} LIMIT ${q.limit} OFFSET ${q.offset}`,
  });
  return { items, ...page };
}

// GET /invoices: a page of invoice records of obligations of type invoice.
export async function listInvoices(tx: Tx, input: ListObligationsInput) {
  const { organizationId, query: page } = input;
  const rows = await loadObligationPage(tx, { organizationId, limit: page.limit, offset: page.offset, obligationType: "invoice" });
  const today = todayUtc();
  return { items: rows.map((o) => toInvoiceRecord(o, o.organizationName, today)), limit: page.limit, offset: page.offset };
}
