import { sqlCount, sqlLater, type Tx } from "@/lib/db/client";
import type { DB } from "@/lib/generated/kysely/database";

// Rows of several tables written in ONE statement, so a request that creates an aggregate
// (an obligation with its conditions, terms, links and payment request) pays one round trip
// instead of one per table. Each table's rows travel as one JSON parameter and are expanded
// by json_populate_recordset into the table's own column types (bigint from decimal
// strings, dates and timestamps from ISO strings), so no value is formatted into the SQL.
// Rows are given with the model's field names (camelCase, as Prisma names them); the
// columns are their snake_case names. Foreign keys between the tables of one call are
// checked at the end of the statement, so parents and children can go together.
// `table`: a table of schema.prisma (its generated row types), so a misspelt one does not compile.
export type TableRows = { table: keyof DB; rows: readonly object[] };

const IDENTIFIER = /^[a-z][a-z0-9_]*$/;
// A field's column, checked once per field name (the names come from code, a bounded set).
const columns = new Map<string, string>();
function column(field: string): string {
  let name = columns.get(field);
  if (name === undefined) {
    name = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (!IDENTIFIER.test(name)) throw new Error(`insertRows: not an identifier: ${name}`);
    columns.set(field, name);
  }
  return name;
}

// `also`: more common table expressions of the same statement (e.g. the event of the change,
// lib/events/record-event.ts `eventWrite`), numbering their parameters from `first`.
export type AlsoWrite = (first: number) => { ctes: string[]; values: unknown[] };

// `later`: the statement goes with the transaction's next statement or its COMMIT (lib/db/client.ts,
// sqlLater) — for a caller that handles no error of it (a unique violation is then the
// transaction's error, a 409 of the pipeline, as it would be at once).
export async function insertRows(tx: Tx, tables: readonly TableRows[], also?: AlsoWrite, options?: { later?: boolean }): Promise<void> {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const { table, rows } of tables) {
    if (rows.length === 0) continue;
    if (!IDENTIFIER.test(table)) throw new Error(`insertRows: not an identifier: ${table}`);
    const fields = Object.keys(rows[0]);
    const names = fields.map(column);
    // Rows under their column names, bigints as decimal strings: plain objects that
    // JSON.stringify serializes on its fast path (a replacer function would take it off it).
    const objects = rows.map((r) => {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) {
        const v = (r as Record<string, unknown>)[fields[i]];
        o[names[i]] = typeof v === "bigint" ? v.toString() : v;
      }
      return o;
    });
    params.push(JSON.stringify(objects));
    const list = names.join(", ");
    parts.push(`INSERT INTO ${table} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${table}, $${params.length}::json)`);
  }
  const extra = also?.(params.length + 1);
  if (extra) params.push(...extra.values);
  const ctes = [...parts.map((p, i) => `w${i} AS (${p})`), ...(extra?.ctes ?? [])];
  if (ctes.length === 0) return;
  const sql = ctes.length === 1 && !extra ? parts[0] : `WITH ${ctes.join(", ")} SELECT 1`;
  if (options?.later) await sqlLater(tx, sql, params);
  else await sqlCount(tx, sql, params);
}
