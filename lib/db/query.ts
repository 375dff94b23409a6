import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from "kysely";
import { type Tx, sql, sqlCount, sqlLater } from "@/lib/db/client";
import type { DB } from "@/lib/generated/kysely/database";

// The typed query builder: Kysely over the row types generated from prisma/schema.prisma
// (lib/generated/kysely, `npm run generate`). It only compiles: every statement goes out
// through `sql()` / `sqlCount()` of lib/db/client.ts, so on the same pool, inside the ambient
// transaction of `transaction()`, behind its corked writes and held-back writes, with the same
// column parsing (int8 as bigint) and statement names. docs/architecture.md, "Database access".
//
//   const rows = await query(tx).selectFrom("payment_instructions").selectAll().where("organization_id", "=", id).execute();
//   await later(tx, query(tx).insertInto("events").values({ ... }));   // a held-back write (sqlLater)
//
// Kysely's own transactions are refused: the transaction is lib/db/client.ts's.
export type Query = Kysely<DB>;

// One Kysely per handle (`db()`, the `tx` of transaction(), or a client made elsewhere).
const instances = new WeakMap<object, Query>();

export function query(q: Tx): Query {
  let k = instances.get(q);
  if (k === undefined) {
    k = new Kysely<DB>({ dialect: dialectOver(q) });
    instances.set(q, k);
  }
  return k;
}

// A write whose result nobody reads, held back and sent with the transaction's next statement
// or its COMMIT (`sqlLater` of lib/db/client.ts, with its rules: only for writes whose failure no code
// handles on the spot).
export function later(q: Tx, statement: { compile(): CompiledQuery }, failure?: (err: unknown) => unknown): Promise<void> {
  const c = statement.compile();
  return sqlLater(q, c.sql, c.parameters as unknown[], failure);
}

type Node = { kind: string; returning?: unknown };

// Rows for what returns rows (SELECT, RETURNING, raw text); the row count for the others.
async function run(q: Tx, compiled: CompiledQuery): Promise<QueryResult<unknown>> {
  const node = compiled.query as unknown as Node;
  const values = compiled.parameters as unknown[];
  if (node.kind === "SelectQueryNode" || node.kind === "RawNode" || node.returning !== undefined) {
    return { rows: await sql(q, compiled.sql, values) };
  }
  return { rows: [], numAffectedRows: BigInt(await sqlCount(q, compiled.sql, values)) };
}

function dialectOver(q: Tx): Dialect {
  const connection: DatabaseConnection = {
    executeQuery: <R>(compiled: CompiledQuery) => run(q, compiled) as Promise<QueryResult<R>>,
    streamQuery: () => {
      throw new Error("lib/db/query.ts: streaming is not supported");
    },
  };
  const refuse = async () => {
    throw new Error("lib/db/query.ts: run the statements inside transaction() of lib/db/client.ts instead of a Kysely transaction");
  };
  const driver: Driver = {
    init: async () => undefined,
    acquireConnection: async () => connection,
    beginTransaction: refuse,
    commitTransaction: refuse,
    rollbackTransaction: refuse,
    releaseConnection: async () => undefined,
    destroy: async () => undefined,
  };
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => driver,
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
