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

// A CHECK constraint refused the change (23514), e.g. an allocated amount above its bound.
export function isCheckViolation(err: unknown): boolean {
  for (const e of chain(err)) if (e.originalCode === "23514" || e.code === "23514") return true;
  return false;
}
