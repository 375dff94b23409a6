import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";

// The one database handle. Both deployments speak the PostgreSQL wire protocol: real
// PostgreSQL via DATABASE_URL, or the embedded PGlite that scripts/start.ts serves over
// a local socket and hands to the server as DATABASE_URL.
export type Db = PrismaClient;
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

const globalForDb = globalThis as unknown as { __fosPrisma?: PrismaClient };

export function db(): PrismaClient {
  if (!globalForDb.__fosPrisma) {
    const url = env().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set");
    // Bounded waits, so an unreachable database is a prompt 503 (lib/http/handle.ts), never a
    // hang: connecting (or waiting for a pooled connection) gives up after 15 s; keep-alive notices a peer that vanished.
    const adapter = new PrismaPg({ connectionString: url, max: env().DB_POOL_MAX, connectionTimeoutMillis: 15_000, keepAlive: true });
    globalForDb.__fosPrisma = new PrismaClient({ adapter });
  }
  return globalForDb.__fosPrisma;
}

// Interactive transaction with limits generous enough for the embedded database, where
// the socket multiplexer runs one transaction at a time. `timeoutMs` raises the 30 s limit
// for the few operations that do bulk work in one transaction (an operation's
// transactionTimeoutMs, lib/http/operation.ts).
export function transaction<T>(fn: (tx: Tx) => Promise<T>, timeoutMs = 30_000): Promise<T> {
  return db().$transaction(fn, { maxWait: 15_000, timeout: timeoutMs });
}

export async function disconnectDb(): Promise<void> {
  if (globalForDb.__fosPrisma) {
    await globalForDb.__fosPrisma.$disconnect();
    globalForDb.__fosPrisma = undefined;
  }
}
