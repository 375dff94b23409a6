import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { logger } from "@/lib/log";

// The one database handle (real PostgreSQL, or the embedded PGlite served over a local socket):
// one pg pool for Prisma and `sql()`. Why: docs/architecture.md, "Why the performance machinery".
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

// The open transaction of the current async context: its connection, state (open | expired:
// rolled back at its time limit | done), the held-back writes (`later`) and the first of them
// that failed. Why: docs/architecture.md, "Why: transactions on one connection" and "Why: held-back writes".
type Later = { text: string; values: unknown[]; failure?: (err: unknown) => unknown };
type TxConn = {
  client: pg.PoolClient;
  state: "open" | "expired" | "done";
  begun?: Promise<unknown>;
  later?: Later[];
  failed?: { err: unknown };
  corked?: boolean; // the socket is corked until the end of the current tick (corkForTick)
};

type State = { prisma: PrismaClient; tx: Tx; pool: pg.Pool; connect: () => Promise<pg.PoolClient>; named: boolean };
// Process-wide (globalThis): one process may hold two bundles of this module (docs/architecture.md, "Serving").
const globalForDb = globalThis as unknown as { __fosDb?: State; __fosDbTx?: AsyncLocalStorage<TxConn> };
globalForDb.__fosDbTx ??= new AsyncLocalStorage<TxConn>();
const ambient = globalForDb.__fosDbTx;

function state(): State {
  if (!globalForDb.__fosDb) {
    const url = env().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set");
    // Bounded waits, so an unreachable database is a prompt 503 (lib/http/respond.ts), never a
    // hang: connecting (or waiting for a pooled connection) gives up after 15 s; keep-alive notices a peer that vanished.
    const pool = new pg.Pool({
      connectionString: url,
      max: env().DB_POOL_MAX,
      connectionTimeoutMillis: 15_000,
      keepAlive: true,
      // Several statements in flight on one connection only inside a transaction (a plain
      // `pool.query` has its connection to itself), so a transaction-mode pooler, which keeps
      // a transaction on one server connection, sees nothing it would split.
      pipeline: true,
    } as pg.PoolConfig);
    // An idle connection that the server drops (a restart, a network cut) is an 'error' event on
    // the pool: without a listener Node would end the process. `sql()` may use the pool before
    // Prisma's adapter attaches its own listener; the next checkout opens a new connection.
    pool.on("error", (err) => logger().warn({ err: err.message }, "idle database connection lost"));
    const connect = routeToTransactions(pool);
    const s: State = { pool, connect, named: false, prisma: undefined as unknown as PrismaClient, tx: undefined as unknown as Tx };
    // Named prepared statements only on real PostgreSQL (PGlite: one session for every
    // connection, names would collide) and never behind a transaction-mode pooler (the next
    // transaction may run on another server connection); unnamed until the probe answers.
    // docs/architecture.md, "Why: one pool".
    if (env().DATABASE_POOLER !== "transaction") {
      pool
        .query("SELECT version() AS v")
        .then((r) => {
          s.named = !/pglite|emscripten/i.test(String(r.rows[0]?.v ?? ""));
        })
        .catch(() => undefined);
    }
    // (The adapter sends an unnamed statement when the generator gives undefined.)
    const nameOf = ((q: { sql: string }) => (s.named ? statementName(q.sql) : undefined)) as (q: { sql: string }) => string;
    s.prisma = new PrismaClient({ adapter: new PrismaPg(pool, { statementNameGenerator: nameOf }) });
    // The handle `transaction()` passes to its function: the same client under another
    // identity (code tells `tx` from `db()` apart), whose `sql()` statements must find an
    // open transaction in their context.
    s.tx = s.prisma.$extends({}) as unknown as Tx;
    globalForDb.__fosDb = s;
  }
  return globalForDb.__fosDb;
}

export function db(): PrismaClient {
  return state().prisma;
}

// Patches the pool: a statement (or a `connect()`, Prisma's nested write) of a context with an
// open transaction runs on its connection; returns the unpatched `connect`. Pinned by
// lib/db/pg-internals.test.ts; docs/architecture.md, "Why: transactions on one connection".
function routeToTransactions(pool: pg.Pool): () => Promise<pg.PoolClient> {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  pool.query = ((...args: unknown[]) => {
    const conn = ambient.getStore();
    if (conn === undefined || conn.state === "done") return query(...args);
    return onTransaction(conn, args);
  }) as typeof pool.query;
  pool.connect = ((...args: unknown[]) => {
    const conn = ambient.getStore();
    // (pg-pool's own `query` calls `connect` with a callback: passed through unchanged.)
    if (conn === undefined || conn.state === "done") return (connect as (...a: unknown[]) => unknown)(...args);
    usable(conn);
    const joined = {
      query: (config: pg.QueryConfig | string, ...rest: unknown[]) => {
        const text = typeof config === "string" ? config : config.text;
        if (/^\s*(BEGIN|COMMIT|ROLLBACK)\s*$/i.test(text)) return Promise.resolve({ command: text.trim().toUpperCase(), rowCount: 0, rows: [], fields: [] });
        return onTransaction(conn, [config, ...rest]);
      },
      on: () => joined,
      removeListener: () => joined,
      release: () => undefined,
    };
    return Promise.resolve(joined as unknown as pg.PoolClient);
  }) as typeof pool.connect;
  return connect;
}

function usable(conn: TxConn): pg.PoolClient {
  if (conn.state !== "open") throw new Error("Transaction already closed: it ran past its time limit and was rolled back");
  return conn.client;
}

type Corkable = { connection: { stream: { cork(): void; uncork(): void } } };

// A statement on the transaction's connection through node-postgres's callback form (not its
// promise form: docs/architecture.md, "Why: node-postgres's callback form"); errors get the caller's stack.
function submit(client: pg.PoolClient, ...args: unknown[]): Promise<pg.QueryResult> {
  return new Promise<pg.QueryResult>((resolve, reject) => {
    (client.query as (...a: unknown[]) => void)(...args, (err: Error | null, res: pg.QueryResult) => (err ? reject(err) : resolve(res)));
  }).catch(withCallerStack);
}

function withCallerStack(err: unknown): never {
  if (err instanceof Error) Error.captureStackTrace(err);
  throw err;
}

// A statement of the open transaction `conn`, in one write with BEGIN (the first), the held-back
// writes and whatever else this tick sends (docs/architecture.md, "Why: BEGIN with the first
// statement, corked writes"). A failed held-back write fails it with that write's error; a failed
// BEGIN (the connection failed) makes `transaction()` discard the connection.
function onTransaction(conn: TxConn, args: unknown[]): unknown {
  const client = usable(conn);
  corkForTick(conn);
  begin(conn);
  const ahead = sendLater(conn);
  const sent = typeof args.at(-1) === "function" ? (client.query as (...a: unknown[]) => unknown)(...args) : submit(client, ...args);
  if (!ahead || !(sent instanceof Promise)) return sent;
  sent.catch(() => undefined); // answered below, after the writes ahead of it
  return ahead.then(() => {
    if (conn.failed) throw conn.failed.err;
    return sent;
  });
}

// Corks the transaction's socket until this tick's work is done (pg internal: connection.stream).
function corkForTick(conn: TxConn): void {
  if (conn.corked) return;
  const stream = (conn.client as unknown as Corkable).connection.stream;
  conn.corked = true;
  stream.cork();
  process.nextTick(() => {
    conn.corked = false;
    stream.uncork();
  });
}

function begin(conn: TxConn): void {
  if (conn.begun) return;
  conn.begun = submit(conn.client, "BEGIN");
  conn.begun.catch(() => undefined); // awaited at COMMIT
}

// Sends the held-back writes (the caller corks the stream); settles when all are answered,
// recording the first failure.
function sendLater(conn: TxConn): Promise<unknown> | undefined {
  const later = conn.later;
  if (!later?.length) return undefined;
  conn.later = undefined;
  return Promise.all(
    later.map((w) =>
      submit(conn.client, config(w.text, w.values)).then(
        () => undefined,
        (err: unknown) => {
          conn.failed ??= { err: w.failure ? w.failure(err) : err };
        },
      ),
    ),
  );
}

// One transaction on one pooled connection: BEGIN, `fn`, COMMIT (ROLLBACK when `fn` throws).
// `timeoutMs` bounds it (generous for the embedded database, where the socket multiplexer runs one
// transaction at a time; an operation's transactionTimeoutMs raises it for bulk work,
// lib/http/operation.ts): past it the transaction is rolled back, its connection returned,
// and the call rejects while `fn`'s further statements fail. Waiting for a connection is
// bounded by the pool's connect timeout (15 s).
export async function transaction<T>(fn: (tx: Tx) => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const s = state();
  const client = await s.connect();
  const conn: TxConn = { client, state: "open" };
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      if (conn.state !== "open") return;
      conn.state = "expired";
      reject(new Error(`Transaction already closed: it ran past its time limit (${timeoutMs} ms) and was rolled back`));
    }, timeoutMs);
  });
  try {
    const result = await Promise.race([ambient.run(conn, () => fn(s.tx)), expired]);
    conn.state = "done";
    if (conn.begun || conn.later?.length) {
      // The writes still held back and COMMIT, in one write. If one of them failed, the
      // database turned COMMIT into ROLLBACK: the transaction fails with that write's error.
      const stream = (client as unknown as Corkable).connection.stream;
      let ahead: Promise<unknown> | undefined;
      let commit: Promise<pg.QueryResult>;
      stream.cork();
      try {
        begin(conn);
        ahead = sendLater(conn);
        commit = submit(client, "COMMIT");
      } finally {
        stream.uncork();
      }
      commit.catch(() => undefined);
      await conn.begun;
      await ahead;
      if (conn.failed) throw conn.failed.err;
      const done = await commit;
      if (done.command !== "COMMIT") throw new Error(`Transaction rolled back at COMMIT (${done.command})`);
    }
    client.release();
    return result;
  } catch (err) {
    if (conn.state === "open") conn.state = "done";
    // A failed COMMIT ended the transaction already; otherwise roll back. A connection whose
    // BEGIN failed, or that cannot even roll back, is discarded, not returned to the pool.
    const begun = conn.begun
      ? await conn.begun.then(
          () => true,
          () => false,
        )
      : true;
    const rolledBack =
      begun &&
      (!conn.begun ||
        (await submit(client, "ROLLBACK").then(
          () => true,
          () => false,
        )));
    client.release(rolledBack ? undefined : (err as Error));
    throw err;
  } finally {
    clearTimeout(timer);
  }
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

// The pool (whose `query` runs a statement of an open transaction's context on its
// connection), or undefined for a client made elsewhere.
function targetOf(q: Tx): pg.Pool | undefined {
  const s = state();
  if (q === s.prisma) return s.pool;
  if (q !== s.tx) return undefined;
  const conn = ambient.getStore();
  if (conn === undefined || conn.state === "done") throw new Error("Transaction already closed");
  usable(conn);
  return s.pool;
}

// A write whose result nobody reads, held back until the transaction's next statement or COMMIT
// (docs/architecture.md, "Why: held-back writes"); `failure` maps its error to the transaction's.
// Outside a transaction it runs at once.
export async function sqlLater(q: Tx, text: string, values: unknown[], failure?: (err: unknown) => unknown): Promise<void> {
  const s = state();
  const conn = q === s.tx ? ambient.getStore() : undefined;
  if (q === s.tx && (conn === undefined || conn.state === "done")) throw new Error("Transaction already closed");
  if (conn) {
    usable(conn);
    conn.later ??= [];
    conn.later.push({ text, values, failure });
    return;
  }
  try {
    await sqlCount(q, text, values);
  } catch (err) {
    throw failure ? failure(err) : err;
  }
}

function config(text: string, values: unknown[]): pg.QueryConfig {
  const c: pg.QueryConfig = { text, values, types };
  if (state().named) c.name = statementName(text);
  return c;
}

function send<R>(target: pg.Pool, text: string, values: unknown[]) {
  return target.query<R & pg.QueryResultRow>(config(text, values));
}

export async function disconnectDb(): Promise<void> {
  const s = globalForDb.__fosDb;
  if (s) {
    globalForDb.__fosDb = undefined;
    await s.prisma.$disconnect();
    await s.pool.end().catch(() => undefined);
  }
}
