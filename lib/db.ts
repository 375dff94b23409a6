import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { logger } from "@/lib/log";

// The one database handle. Both deployments speak the PostgreSQL wire protocol: real
// PostgreSQL via DATABASE_URL, or the embedded PGlite that scripts/start.ts serves over
// a local socket and hands to the server as DATABASE_URL.
//
// One pg pool serves both Prisma (through its driver adapter) and `sql()` below: the hot
// statements of the API (credential, claim, loads, writes of registration) go to the pool
// or to the request transaction's connection directly, without Prisma's query machinery
// (docs/benchmarks.md, step 6).
export type Db = PrismaClient;
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

// The connection of one open transaction: set when Prisma opens it (the adapter's
// startTransaction runs in the async context of `transaction()`), closed at commit/rollback
// (after which the connection is back in the pool and must not be used by `sql()`).
type TxConn = { client?: pg.PoolClient; closed: boolean };

type State = { prisma: PrismaClient; pool: pg.Pool; named: boolean };
// Process-wide, not module-wide: one process may hold more than one copy of this module
// (Next.js's bundles and the direct API bundle, scripts/build-api.mjs), and the transaction
// tracking must see the transactions every copy opens on the one shared Prisma client.
const globalForDb = globalThis as unknown as {
  __fosDb?: State;
  __fosDbTx?: { opening: AsyncLocalStorage<TxConn>; txConns: WeakMap<object, TxConn> };
};
globalForDb.__fosDbTx ??= { opening: new AsyncLocalStorage<TxConn>(), txConns: new WeakMap<object, TxConn>() };
const { opening, txConns } = globalForDb.__fosDbTx;

function state(): State {
  if (!globalForDb.__fosDb) {
    const url = env().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set");
    // Bounded waits, so an unreachable database is a prompt 503 (lib/http/handle.ts), never a
    // hang: connecting (or waiting for a pooled connection) gives up after 15 s; keep-alive notices a peer that vanished.
    const pool = new pg.Pool({ connectionString: url, max: env().DB_POOL_MAX, connectionTimeoutMillis: 15_000, keepAlive: true });
    // An idle connection that the server drops (a restart, a network cut) is an 'error' event on
    // the pool: without a listener Node would end the process. `sql()` may use the pool before
    // Prisma's adapter attaches its own listener; the next checkout opens a new connection.
    pool.on("error", (err) => logger().warn({ err: err.message }, "idle database connection lost"));
    const s: State = { pool, named: false, prisma: undefined as unknown as PrismaClient };
    // Named prepared statements (parsed and planned once per connection) only on real
    // PostgreSQL: the embedded PGlite serves every socket connection from ONE session
    // (lib/db/pglite-socket-isolation.ts), where two connections' statement names collide.
    // Until the probe answers, statements are unnamed (always correct).
    pool
      .query("SELECT version() AS v")
      .then((r) => {
        s.named = !/pglite|emscripten/i.test(String(r.rows[0]?.v ?? ""));
      })
      .catch(() => undefined);
    // (The adapter sends an unnamed statement when the generator gives undefined.)
    const nameOf = ((q: { sql: string }) => (s.named ? statementName(q.sql) : undefined)) as (q: { sql: string }) => string;
    const adapter = new PrismaPg(pool, { statementNameGenerator: nameOf });
    trackTransactions(adapter);
    s.prisma = new PrismaClient({ adapter });
    globalForDb.__fosDb = s;
  }
  return globalForDb.__fosDb;
}

export function db(): PrismaClient {
  return state().prisma;
}

// Records the pg connection of each transaction Prisma opens into the TxConn of the
// `transaction()` call that opened it.
function trackTransactions(factory: PrismaPg): void {
  type Adapter = Awaited<ReturnType<PrismaPg["connect"]>>;
  type Transaction = Awaited<ReturnType<Adapter["startTransaction"]>>;
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const t: Transaction = await start(isolationLevel);
      const conn = opening.getStore();
      if (conn) {
        conn.client = (t as unknown as { client: pg.PoolClient }).client;
        const commit = t.commit.bind(t);
        const rollback = t.rollback.bind(t);
        t.commit = () => {
          conn.closed = true;
          return commit();
        };
        t.rollback = () => {
          conn.closed = true;
          return rollback();
        };
      }
      return t;
    };
    return adapter;
  };
}

// Interactive transaction with limits generous enough for the embedded database, where
// the socket multiplexer runs one transaction at a time. `timeoutMs` raises the 30 s limit
// for the few operations that do bulk work in one transaction (an operation's
// transactionTimeoutMs, lib/http/operation.ts).
export function transaction<T>(fn: (tx: Tx) => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const conn: TxConn = { closed: false };
  return opening.run(conn, () =>
    db().$transaction(
      (tx) => {
        txConns.set(tx, conn);
        return fn(tx);
      },
      { maxWait: 15_000, timeout: timeoutMs },
    ),
  );
}

// Statement names: a digest of the text (the same text is the same statement on every connection).
const names = new Map<string, string>();
function statementName(text: string): string {
  let n = names.get(text);
  if (n === undefined) {
    n = `s${createHash("sha1").update(text).digest("base64url")}`;
    // Bounded: statements built with a variable number of parameters have many texts.
    if (names.size >= 2000) names.clear();
    names.set(text, n);
  }
  return n;
}

// Column types as this code reads them (the same values Prisma's raw queries give): int8 as
// bigint (money), date as a Date at UTC midnight; timestamptz as Date, json parsed and
// numeric as text are pg's own defaults.
const PARSE_INT8 = (v: string) => BigInt(v);
const PARSE_DATE = (v: string) => new Date(`${v}T00:00:00.000Z`);
const types = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === 20) return PARSE_INT8;
    if (oid === 1082) return PARSE_DATE;
    return pg.types.getTypeParser(oid, format as "text");
  }) as typeof pg.types.getTypeParser,
};

// A statement sent straight to the connection of `q`: the pool for the plain handle
// (`db()`), the transaction's own connection for a `tx` of `transaction()`. Parameters are
// $1..$n (never formatted into the text). Rows as objects keyed by column name, typed as
// Prisma's raw queries type them. A client made elsewhere (a benchmark script's own
// PrismaClient) goes through Prisma's raw query instead, with the same result.
export async function sql<R = Record<string, unknown>>(q: Tx, text: string, values: unknown[] = []): Promise<R[]> {
  const target = targetOf(q);
  if (!target) return (q as PrismaClient).$queryRawUnsafe<R[]>(text, ...values);
  return (await send<R>(target, text, values)).rows;
}

// The same for a statement whose row count is its result (INSERT/UPDATE/DELETE).
export async function sqlCount(q: Tx, text: string, values: unknown[] = []): Promise<number> {
  const target = targetOf(q);
  if (!target) return (q as PrismaClient).$executeRawUnsafe(text, ...values);
  return (await send(target, text, values)).rowCount ?? 0;
}

function targetOf(q: Tx): pg.Pool | pg.PoolClient | undefined {
  const s = state();
  if (q === s.prisma) return s.pool;
  const conn = txConns.get(q);
  if (!conn?.client) return undefined;
  if (conn.closed) throw new Error("Transaction already closed");
  return conn.client;
}

function send<R>(target: pg.Pool | pg.PoolClient, text: string, values: unknown[]) {
  const config: pg.QueryConfig = { text, values, types };
  if (state().named) config.name = statementName(text);
  return target.query<R & pg.QueryResultRow>(config);
}

export async function disconnectDb(): Promise<void> {
  const s = globalForDb.__fosDb;
  if (s) {
    globalForDb.__fosDb = undefined;
    await s.prisma.$disconnect();
    await s.pool.end().catch(() => undefined);
  }
}
