import { sqlCount, type Tx } from "@/lib/db";

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

export async function insertRows(tx: Tx, tables: readonly TableRows[]): Promise<void> {
  const parts: string[] = [];
  const params: string[] = [];
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
  if (parts.length === 0) return;
  const sql = parts.length === 1 ? parts[0] : `WITH ${parts.map((p, i) => `w${i} AS (${p})`).join(", ")} SELECT 1`;
  await sqlCount(tx, sql, params);
}

function jsonValue(_key: string, v: unknown): unknown {
  return typeof v === "bigint" ? v.toString() : v;
}
