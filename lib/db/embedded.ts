import { mkdir, readFile, writeFile, rm } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { isolateSocketConnections } from "@/lib/db/pglite-socket-isolation";

// The embedded database: one PGlite data folder, owned by one process, served to the
// Next.js server (and to `npm run admin` while the server runs) over a loopback socket.
// Everything else connects to it with an ordinary PostgreSQL URL.
export type EmbeddedDb = { url: string; close: () => Promise<void> };

export type SocketInfo = { port: number; pid: number };

const socketFile = (dataDir: string) => path.join(dataDir, "socket.json");

export async function startEmbeddedDb(dataDir: string, opts: { maxConnections?: number } = {}): Promise<EmbeddedDb> {
  await mkdir(dataDir, { recursive: true });
  // pg_trgm: trigram indexes for the business-context search (migration 0004).
  const pglite = await PGlite.create(path.join(dataDir, "pgdata"), { extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({
    db: pglite,
    host: "127.0.0.1",
    port: 0,
    maxConnections: opts.maxConnections ?? 100,
  });
  isolateSocketConnections(server, pglite); // connection isolation fix, see that file
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
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
  return reachable ? `postgresql://postgres:postgres@127.0.0.1:${info.port}/postgres?sslmode=disable` : undefined;
}
