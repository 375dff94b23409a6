import { type Expression, type ExpressionBuilder, type SqlBool, sql as raw } from "kysely";
import type { DB } from "@/lib/generated/kysely/database";
import type { Query } from "@/lib/db/query";
import type { Tx } from "@/lib/db/client";
import { todayUtc } from "@/lib/schemas/common";
import type { TObligationListQuery } from "@/lib/schemas/obligations";
import { loadObligationPage } from "@/lib/obligations/load";
import { toInvoiceRecord } from "@/lib/obligations/view";
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

// The values of a filtered list's statement (its shape is the query's: listShape).
export type ListParams = {
  org: string;
  statuses: string[];
  role: string;
  types: string[];
  currency: string;
  today: string;
  contextId: string;
  search: string;
  limit: number;
  offset: number;
};

export function listParams(organizationId: string, q: Partial<ObligationListQuery>, today = todayUtc()): ListParams {
  return {
    org: organizationId,
    statuses: q.status ?? [],
    role: q.role ?? "",
    types: q.type ?? [],
    currency: q.currency ?? "",
    today,
    contextId: q.context_id ?? "",
    search: q.search ? containsPattern(searchTerm(q.search)) : "",
    limit: q.limit ?? 0,
    offset: q.offset ?? 0,
  };
}

// What makes two list queries the same statement: the filters present and the order.
export function listShape(q: Partial<ObligationListQuery>): string {
  const present = [q.status?.length, q.role, q.type?.length, q.currency, q.overdue, q.context_id, q.search].map((v) => (v ? 1 : v === false ? 0 : "-"));
  return `${present.join("")}|${listOrderSql(q)}`;
}

// The WHERE clause of a filtered list: organization first (every index leads with it). The
// filters present in `q` decide its shape, `p` gives its values (placeholders in a statement()).
export function listWhere(eb: ExpressionBuilder<DB, "obligations">, q: Partial<ObligationListQuery>, p: ListParams): Expression<SqlBool> {
  const where: Expression<SqlBool>[] = [eb("organization_id", "=", p.org)];
  if (q.status?.length) where.push(raw<boolean>`status = ANY(${p.statuses}::text[])`);
  if (q.role) where.push(eb("organization_role", "=", p.role));
  if (q.type?.length) where.push(raw<boolean>`obligation_type = ANY(${p.types}::text[])`);
  if (q.currency) where.push(eb("currency", "=", p.currency));
  if (q.overdue === true) where.push(raw<boolean>`(deadline < ${p.today}::date AND status <> 'RECONCILED')`);
  if (q.overdue === false) where.push(raw<boolean>`NOT (deadline < ${p.today}::date AND status <> 'RECONCILED')`);
  if (q.context_id) {
    where.push(
      eb(
        "id",
        "in",
        eb.selectFrom("obligation_context_links").select("obligation_id").where("organization_id", "=", p.org).where("context_id", "=", p.contextId),
      ),
    );
  }
  if (q.search) where.push(raw<boolean>`${raw.raw(SEARCH_TEXT_SQL)} ILIKE ${p.search}`);
  return eb.and(where);
}

// ORDER BY of a list (constant text of this file's sort keys).
export function listOrder(q: Partial<ObligationListQuery>) {
  return raw.raw(listOrderSql(q));
}

function listOrderSql(q: Partial<ObligationListQuery>): string {
  const sort = q.sort ?? "created_at";
  const dir = (q.direction ?? (sort === "deadline" ? "asc" : "desc")) === "asc" ? "ASC" : "DESC";
  const byCurrency = q.currencyFirst && !q.currency && (sort === "amount" || sort === "outstanding") ? "currency ASC, " : "";
  return `${byCurrency}${SORT_SQL[sort]} ${dir}, id ${dir}`;
}

// The ids of a page of a filtered list, in its order.
export const listPick = (qb: Query, q: Partial<ObligationListQuery>, p: ListParams) =>
  qb
    .selectFrom("obligations")
    .select("id")
    .where((eb) => listWhere(eb, q, p))
    .orderBy(listOrder(q))
    .limit(p.limit)
    .offset(p.offset);

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
    shape: listShape(q),
    pick: (qb, p) => listPick(qb, q, p),
    params: listParams(organizationId, q, today),
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
