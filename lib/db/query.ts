import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  DummyDriver,
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

// A statement built once per shape (the hot paths): `build` gets placeholders for its
// parameters, is compiled on first use, and each call binds the values in order — no query
// tree or compilation per request (docs/architecture.md, "Why: statements built once").
//
//   const byId = statement((q, p: { org: string; id: string }) =>
//     q.selectFrom("obligations").select(["id", "status"]).where("organization_id", "=", p.org).where("id", "=", p.id));
//   const rows = await byId.rows(tx, { org, id });
//
// A placeholder is an opaque value: compare a possibly-null one with `is not distinct from`,
// and pass a list as one array parameter (`= any(...)`), never to `in`.
export function statement<P extends Record<string, unknown>, O>(build: (q: Query, p: P) => { compile(): CompiledQuery<O> }): Statement<P, O> {
  let shape: Shape | undefined;
  const bind = (p: P) => {
    shape ??= compileShape(build);
    const values = new Array<unknown>(shape.slots.length);
    for (let i = 0; i < values.length; i++) {
      const slot = shape.slots[i];
      values[i] = typeof slot === "string" ? p[slot] : slot.value;
    }
    return { text: shape.text, values };
  };
  return {
    rows: async (q, p) => {
      const { text, values } = bind(p);
      return sql<O>(q, text, values);
    },
    count: async (q, p) => {
      const { text, values } = bind(p);
      return sqlCount(q, text, values);
    },
    later: async (q, p, failure) => {
      const { text, values } = bind(p);
      return sqlLater(q, text, values, failure);
    },
    text: () => bind({} as P).text,
    bind,
  };
}

export type Statement<P, O> = {
  rows(q: Tx, p: P): Promise<O[]>; // what returns rows (SELECT, RETURNING)
  count(q: Tx, p: P): Promise<number>; // the row count of an INSERT/UPDATE/DELETE
  later(q: Tx, p: P, failure?: (err: unknown) => unknown): Promise<void>; // a held-back write (`later`)
  text(): string; // the compiled text (tests, EXPLAIN)
  bind(p: P): { text: string; values: unknown[] }; // the text with its values in order (tests' EXPLAIN)
};

// Each parameter position: the name of the placeholder it came from, or a constant of the builder.
type Shape = { text: string; slots: (string | { value: unknown })[] };

const PLACEHOLDER = Symbol("placeholder");
type Placeholder = { [PLACEHOLDER]: string };

// Compiles without any connection (Kysely's DummyDriver); a placeholder is an object Kysely
// passes through as a parameter value, found again by identity in the compiled parameters.
const compiler = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

function compileShape<P>(build: (q: Query, p: P) => { compile(): CompiledQuery }): Shape {
  const params = new Proxy({} as Record<string, Placeholder>, {
    get: (cache, key) => {
      if (typeof key !== "string") return undefined;
      cache[key] ??= { [PLACEHOLDER]: key };
      return cache[key];
    },
  });
  const compiled = build(compiler, params as P).compile();
  const slots = compiled.parameters.map((v) => (typeof v === "object" && v !== null && PLACEHOLDER in v ? (v as Placeholder)[PLACEHOLDER] : { value: v }));
  return { text: compiled.sql, slots };
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
