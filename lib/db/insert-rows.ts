import { sqlCount, sqlLater, type Tx } from "@/lib/db";

// Rows of several tables written in ONE statement, so a request that creates an aggregate
// (an obligation with its conditions, terms, links and payment request) pays one round trip
// instead of one per table. Each table's rows travel as one JSON parameter and are expanded
// by json_populate_recordset into the table's own column types (bigint from decimal
// strings, dates and timestamps from ISO strings), so no value is formatted into the SQL.
// Rows are given with the model's field names (camelCase, as Prisma names them); the
// columns are their snake_case names. Foreign keys between the tables of one call are
// checked at the end of the statement, so parents and children can go together.
export type TableRows = { table: string; rows: readonly object[] };

const IDENTIFIER = /^[a-z][a-z0-9_]*$/;
const column = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

// `also`: more common table expressions of the same statement (e.g. the event of the change,
// lib/events/record-event.ts `eventWrite`), numbering their parameters from `first`.
export type AlsoWrite = (first: number) => { ctes: string[]; values: unknown[] };

// `later`: the statement goes with the transaction's next statement or its COMMIT (lib/db.ts,
// sqlLater) — for a caller that handles no error of it (a unique violation is then the
// transaction's error, a 409 of the pipeline, as it would be at once).
export async function insertRows(tx: Tx, tables: readonly TableRows[], also?: AlsoWrite, options?: { later?: boolean }): Promise<void> {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const { table, rows } of tables) {
    if (rows.length === 0) continue;
    const fields = Object.keys(rows[0]);
    const columns = fields.map(column);
    for (const name of [table, ...columns]) if (!IDENTIFIER.test(name)) throw new Error(`insertRows: not an identifier: ${name}`);
    params.push(
      JSON.stringify(
        rows.map((r) => Object.fromEntries(fields.map((f, i) => [columns[i], (r as Record<string, unknown>)[f]]))),
        jsonValue,
      ),
    );
    const list = columns.join(", ");
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

function jsonValue(_key: string, v: unknown): unknown {
  return typeof v === "bigint" ? v.toString() : v;
}
