import type { PGlite } from "@electric-sql/pglite";
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// pglite-socket 0.2.x serves every connection from ONE PGlite session and schedules
// single protocol messages, pinning a connection only while a SQL transaction is open
// (electric-sql/pglite#1046, fix proposed in #977, unreleased). Outside a transaction the
// extended-protocol batches of two connections (Parse/Bind/Describe/Execute ... Sync)
// interleave: connection B's Parse replaces the unnamed statement between A's Parse and
// A's Bind. Seen here as 500s ("bind message supplies 6 parameters, but prepared
// statement requires 3") and wrong results (an API key lookup answering "unknown" -> 401)
// as soon as two requests run at once; with compatible shapes it would silently run one
// connection's parameters against another's statement. Also, one thrown error left the
// queue's `processing` flag set forever (every later query hung).
//
// This replaces the queue's scheduler: a connection keeps the session from its first
// extended-protocol message until its Sync has been processed, and for as long as it has
// a transaction open; a failing message rejects only its own caller. Checked against the
// queue's shape at start, so an upgrade that changes it fails loudly instead of silently.

type QueueItem = {
  handlerId: number;
  message: Uint8Array;
  resolve: (bytes: number) => void;
  reject: (err: unknown) => void;
  onData: (data: Uint8Array) => void;
};

type QueryQueue = {
  queue: QueueItem[];
  processing: boolean;
  lastHandlerId: number | null;
  processQueue: () => Promise<void>;
  clearTransactionIfNeeded: (handlerId: number) => Promise<void>;
};

// Frontend message types (first byte) of the extended query protocol.
const OPENS_BATCH = new Set([0x50 /* P */, 0x42 /* B */, 0x44 /* D */, 0x45 /* E */, 0x43 /* C Close */, 0x48 /* H Flush */]);
const CLOSES_BATCH = new Set([0x53 /* S Sync */, 0x51 /* Q simple query */, 0x58 /* X Terminate */]);
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

export function isolateSocketConnections(server: PGLiteSocketServer, db: PGlite): void {
  const q = (server as unknown as { queryQueue?: QueryQueue }).queryQueue;
  if (!q || !Array.isArray(q.queue) || typeof q.processQueue !== "function" || typeof q.clearTransactionIfNeeded !== "function") {
    throw new Error("@electric-sql/pglite-socket internals changed: review lib/db/pglite-socket-isolation.ts");
  }
  let owner: number | null = null; // the connection holding the session
  let batchOpen = false; // the owner sent extended-protocol messages without the closing Sync

  const run = (message: Uint8Array, onData: (d: Uint8Array) => void) => db.runExclusive(() => db.execProtocolRawStream(message, { onRawData: onData }));

  q.processQueue = async function processQueue() {
    if (q.processing) return;
    q.processing = true;
    try {
      while (q.queue.length > 0) {
        let index = 0;
        if (owner !== null && (batchOpen || db.isInTransaction())) {
          index = q.queue.findIndex((i) => i.handlerId === owner);
          if (index === -1) break; // wait for the owner's next message
        }
        const [item] = q.queue.splice(index, 1);
        const type = item.message[0];
        owner = item.handlerId;
        q.lastHandlerId = item.handlerId;
        if (OPENS_BATCH.has(type)) batchOpen = true;
        else if (CLOSES_BATCH.has(type)) batchOpen = false;
        let bytes = 0;
        try {
          await run(item.message, (d) => {
            bytes += d.length;
            item.onData(d);
          });
        } catch (err) {
          item.reject(err);
          continue;
        }
        item.resolve(bytes);
      }
    } finally {
      q.processing = false;
    }
  };

  // A connection that goes away releases the session: a pending extended-protocol batch
  // is closed with a Sync (so the next connection does not inherit an error state), an
  // open transaction is rolled back, and the queue moves on.
  q.clearTransactionIfNeeded = async function clearTransactionIfNeeded(handlerId: number) {
    if (owner !== handlerId) return;
    try {
      if (batchOpen) await run(SYNC, () => undefined);
      if (db.isInTransaction()) await db.exec("ROLLBACK");
    } finally {
      batchOpen = false;
      owner = null;
      q.lastHandlerId = null;
      void q.processQueue();
    }
  };
}
