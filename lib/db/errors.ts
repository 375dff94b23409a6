// Classifies database errors as Prisma 7 + @prisma/adapter-pg surface them: a model query
// throws PrismaClientKnownRequestError (code P2034 for 40001/40P01, meta.driverAdapterError
// for the rest), a raw query P2010 with meta.driverAdapterError; the driver adapter's
// error carries `cause: { kind, originalCode }`.
type ErrLike = { code?: unknown; kind?: unknown; originalCode?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };

function* chain(err: unknown, depth = 0): Generator<ErrLike> {
  if (depth > 5 || typeof err !== "object" || err === null) return;
  const e = err as ErrLike;
  yield e;
  yield* chain(e.meta?.driverAdapterError, depth + 1);
  yield* chain(e.cause, depth + 1);
}

// Deadlock (40P01) or serialization failure (40001): the transaction was rolled back by
// the database and can be retried as a whole.
export function isWriteConflict(err: unknown): boolean {
  for (const e of chain(err)) {
    if (e.code === "P2034" || e.kind === "TransactionWriteConflict") return true;
    if (e.originalCode === "40P01" || e.originalCode === "40001" || e.code === "40P01" || e.code === "40001") return true;
  }
  return false;
}

// A unique index refused the change (23505): P2002 from a model query, the driver adapter's
// code from a raw one.
export function isUniqueViolation(err: unknown): boolean {
  for (const e of chain(err)) if (e.code === "P2002" || e.originalCode === "23505" || e.code === "23505") return true;
  return false;
}

// A CHECK constraint refused the change (23514), e.g. an allocated amount above its bound.
export function isCheckViolation(err: unknown): boolean {
  for (const e of chain(err)) if (e.originalCode === "23514" || e.code === "23514") return true;
  return false;
}

// The database cannot serve the request right now: unreachable, restarting, shutting down,
// out of connections, or no pool connection within the connect timeout. Answered 503.
const UNAVAILABLE_PRISMA = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
const UNAVAILABLE_KINDS = new Set([
  "DatabaseNotReachable",
  "DatabaseDoesNotExist",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TransactionAlreadyClosed",
]);
const UNAVAILABLE_NODE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH"]);
const UNAVAILABLE_MESSAGE =
  /ECONNREFUSED|ECONNRESET|Can.t reach database server|connection terminated|timeout exceeded when trying to connect|connection (was )?closed|server closed the connection|Connection refused|the database system is (starting up|shutting down|in recovery)|terminating connection|Transaction API error|Unable to start a transaction|Client has encountered a connection error/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of chain(err)) {
    if (typeof e.code === "string" && (UNAVAILABLE_PRISMA.has(e.code) || UNAVAILABLE_NODE.has(e.code) || /^(08|57P0|53300)/.test(e.code))) return true;
    if (typeof e.kind === "string" && UNAVAILABLE_KINDS.has(e.kind)) return true;
    if (typeof e.originalCode === "string" && /^(08|57P0|53300)/.test(e.originalCode)) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message)) return true;
  }
  return false;
}

// A unique violation (23505) of the index `index`: the error names it. Citus relays a shard's
// error, whose index name carries the shard's number (`<index>_102008`), and from a statement
// with several writing CTEs under the code XX000 with the same message.
export function isUniqueViolationOf(err: unknown, index: string): boolean {
  for (const e of chain(err)) {
    const named = e as { constraint?: unknown; originalMessage?: unknown; message?: unknown };
    const unique =
      e.originalCode === "23505" ||
      e.code === "23505" ||
      [named.originalMessage, named.message].some((m) => typeof m === "string" && m.startsWith("duplicate key value violates unique constraint"));
    if (!unique) continue;
    for (const v of [named.constraint, named.originalMessage, named.message]) {
      if (typeof v === "string" && (v === index || v.startsWith(`${index}_`) || v.includes(`"${index}"`) || v.includes(`"${index}_`))) return true;
    }
  }
  return false;
}
