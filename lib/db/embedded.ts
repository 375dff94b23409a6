import { mkdir, readFile, writeFile, rm } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// The embedded database: one PGlite data folder, owned by one process, served to the
// Next.js server (and to `npm run admin` while the server runs) over a loopback socket.
// Everything else connects to it with an ordinary PostgreSQL URL.
export type EmbeddedDb = { url: string; close: () => Promise<void> };

export type SocketInfo = { port: number; pid: number };

const socketFile = (dataDir: string) => path.join(dataDir, "socket.json");

export async function startEmbeddedDb(dataDir: string, opts: { maxConnections?: number } = {}): Promise<EmbeddedDb> {
  await mkdir(dataDir, { recursive: true });
  const pglite = await PGlite.create(path.join(dataDir, "pgdata"));
  const server = new PGLiteSocketServer({
    db: pglite,
    host: "127.0.0.1",
    port: 0,
    maxConnections: opts.maxConnections ?? 100,
  });
  keepProtocolBatchesTogether(server);
  await server.start();
  const address = (server as unknown as { server?: net.Server }).server?.address();
  const port = typeof address === "object" && address ? address.port : Number(new URL(`pg://${server.getServerConn()}`).port);
  await writeFile(socketFile(dataDir), JSON.stringify({ port, pid: process.pid } satisfies SocketInfo));
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    close: async () => {
      await rm(socketFile(dataDir), { force: true });
      await server.stop();
      await pglite.close();
    },
  };
}

// The socket of a server already running on this data folder, if any.
export async function runningEmbeddedDb(dataDir: string): Promise<string | undefined> {
  let info: SocketInfo;
  try {
    info = JSON.parse(await readFile(socketFile(dataDir), "utf8")) as SocketInfo;
  } catch {
    return undefined;
  }
  try {
    process.kill(info.pid, 0);
  } catch {
    return undefined;
  }
  const reachable = await new Promise<boolean>((resolve) => {
    const s = net.connect(info.port, "127.0.0.1");
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });
  return reachable ? `postgresql://postgres:postgres@127.0.0.1:${info.port}/postgres?sslmode=disable` : undefined;
}

// pglite-socket queues every protocol message of every connection on one PGlite session and
// keeps a connection's messages together only while that connection is inside a
// transaction. Outside one, another connection's messages can run between the Parse, Bind
// and Execute of an extended-protocol query: a BEGIN or simple query from connection B
// between A's Parse and Bind destroys A's unnamed statement ("unnamed prepared statement
// does not exist", "portal does not exist"), and B's Parse in between would even bind A's
// parameters to B's statement. This replaces the queue's scheduler so that a connection
// that sent an extended-protocol message (Parse, Bind, Describe, Execute, Close, Flush)
// keeps the session until its Sync, exactly as in a transaction. (Upstream behaviour of
// @electric-sql/pglite-socket 0.2.x; reproduced by lib/db/embedded.test.ts.)
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
  db: PGlite;
  processQueue: () => Promise<void>;
  clearTransactionIfNeeded: (handlerId: number) => Promise<void>;
};

const EXTENDED_PROTOCOL = new Set(["P", "B", "D", "E", "C", "H"].map((c) => c.charCodeAt(0)));

export function keepProtocolBatchesTogether(server: PGLiteSocketServer): void {
  const q = (server as unknown as { queryQueue?: QueryQueue }).queryQueue;
  if (!q || typeof q.processQueue !== "function") throw new Error("unexpected @electric-sql/pglite-socket internals: queryQueue not found");
  let batchOwner: number | null = null;
  q.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = batchOwner ?? (this.db.isInTransaction() ? this.lastHandlerId : null);
        let item: QueueItem | undefined;
        if (owner !== null) {
          const i = this.queue.findIndex((x) => x.handlerId === owner);
          if (i === -1) break; // wait for the owner's next message
          item = this.queue.splice(i, 1)[0];
        } else item = this.queue.shift();
        if (!item) break;
        const current = item;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(current.message, {
              onRawData: (d: Uint8Array) => {
                bytes += d.length;
                current.onData(d);
              },
            }),
          );
        } catch (err) {
          if (batchOwner === current.handlerId) batchOwner = null;
          current.reject(err);
          continue;
        }
        if (EXTENDED_PROTOCOL.has(current.message[0])) batchOwner = current.handlerId;
        else if (batchOwner === current.handlerId) batchOwner = null;
        this.lastHandlerId = current.handlerId;
        current.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }.bind(q);
  const clear = q.clearTransactionIfNeeded.bind(q);
  q.clearTransactionIfNeeded = async (handlerId: number) => {
    const wasOwner = batchOwner === handlerId;
    if (wasOwner) batchOwner = null;
    await clear(handlerId);
    if (wasOwner) await q.processQueue();
  };
}
