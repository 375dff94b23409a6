import { execSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

// Starts the real service (scripts/start.ts -> scripts/server.mjs) for tests: on a fresh PGlite
// data folder, or on a fresh database of the PostgreSQL server at TEST_DATABASE_URL.
export const TEST_APP_SECRET = "test-app-secret-0123456789abcdef0123456789";
export const TEST_CRON_SECRET = "test-cron-secret-0123456789abcdef";

export type TestServer = {
  baseUrl: string;
  port: number;
  databaseUrl: string;
  logFile: string;
  process: ChildProcess;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      const port = typeof a === "object" && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

// The URL of `databaseUrl`'s database through the pooler at TEST_POOLER_URL, if one is set.
export function pooledUrl(databaseUrl: string): string | undefined {
  const pooler = process.env.TEST_POOLER_URL;
  if (!pooler) return undefined;
  const u = new URL(pooler);
  u.pathname = new URL(databaseUrl).pathname;
  return u.toString();
}

export async function createTestDatabase(adminUrl: string): Promise<string> {
  const name = `fos_test_${randomBytes(6).toString("hex")}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  let workers: { host: string; port: number }[] = [];
  try {
    await c.query(`CREATE DATABASE ${name}`);
    workers = await citusWorkers(c);
  } finally {
    await c.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  if (workers.length) await makeCitusDatabase(u, name, workers);
  return u.toString();
}

// Drops a database createTestDatabase made, on a Citus coordinator on its workers too.
export async function dropTestDatabase(adminUrl: string, databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const workers = await citusWorkers(admin);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    for (const w of workers) {
      const u = new URL(adminUrl);
      u.hostname = w.host;
      u.port = String(w.port);
      const c = new pg.Client({ connectionString: u.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => c.end());
    }
  } finally {
    await admin.end();
  }
}

// The workers of the Citus coordinator `c` is connected to (none on plain PostgreSQL).
async function citusWorkers(c: pg.Client): Promise<{ host: string; port: number }[]> {
  if (!(await c.query("SELECT 1 FROM pg_extension WHERE extname = 'citus'")).rowCount) return [];
  return (await c.query<{ host: string; port: number }>("SELECT nodename AS host, nodeport AS port FROM pg_dist_node WHERE groupid <> 0")).rows;
}

// A Citus coordinator at adminUrl: the fresh database becomes a cluster of the same nodes (the
// extension in it on every node, the workers added), so the migrations distribute its tables.
async function makeCitusDatabase(coordinator: URL, name: string, workers: { host: string; port: number }[]): Promise<void> {
  const run = async (url: string, statements: string[]) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      for (const s of statements) await c.query(s);
    } finally {
      await c.end();
    }
  };
  for (const w of workers) {
    const admin = new URL(coordinator);
    admin.hostname = w.host;
    admin.port = String(w.port);
    admin.pathname = "/postgres";
    await run(admin.toString(), [`CREATE DATABASE ${name}`]);
    admin.pathname = `/${name}`;
    await run(admin.toString(), ["CREATE EXTENSION citus"]);
  }
  await run(coordinator.toString(), [
    "CREATE EXTENSION citus",
    `SELECT citus_set_coordinator_host('${coordinator.hostname}', ${Number(coordinator.port || 5432)})`,
    ...workers.map((w) => `SELECT citus_add_node('${w.host}', ${w.port})`),
  ]);
}

// The server processes of a server's process group (scripts/start.ts, scripts/serve.cjs and one
// or WEB_CONCURRENCY processes that name themselves "next-server").
export function serverProcessIds(server: TestServer): number[] {
  return execSync(`ps -o pid=,args= -g ${server.process.pid}`, { encoding: "utf8" })
    .split("\n")
    .map((l) => l.trim().split(/\s+/, 2))
    .filter(([, args]) => args?.startsWith("next-server"))
    .map(([pid]) => Number(pid));
}

export async function startServer(opts: { databaseUrl?: string; env?: Record<string, string>; label?: string; port?: number } = {}): Promise<TestServer> {
  const port = opts.port ?? (await freePort());
  const workDir = mkdtempSync(path.join(os.tmpdir(), `fos-${opts.label ?? "server"}-`));
  const logFile = path.join(workDir, "server.log");
  const log = createWriteStream(logFile);
  const dataDir = path.join(workDir, "data");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    APP_SECRET: TEST_APP_SECRET,
    DEMO_SEED: "off",
    LOG_LEVEL: "info",
    DATA_DIR: dataDir,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
    // Test servers flush webhooks only when a test asks (GET /api/v1/cron/webhooks), so
    // no background flusher races the flushers a test controls; opts.env can turn it on.
    WEBHOOK_WORKER: "off",
    // Likewise the scheduler sweeps only on GET /api/v1/cron/scheduler unless opts.env sets an interval.
    SCHEDULER_INTERVAL_MS: "0",
    CRON_SECRET: TEST_CRON_SECRET,
    NODE_ENV: "production",
    ...opts.env,
  };
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  else delete env.DATABASE_URL;
  // TEST_POOLER_URL (a PgBouncer in transaction mode in front of TEST_DATABASE_URL's server):
  // the server reaches its database through the pooler, migrations go direct.
  const pooled = opts.databaseUrl ? pooledUrl(opts.databaseUrl) : undefined;
  if (pooled && opts.databaseUrl) {
    env.DATABASE_URL = pooled;
    env.DIRECT_DATABASE_URL = opts.databaseUrl;
    env.DATABASE_POOLER = "transaction";
  }

  // As `npm start` runs it: one process with tsx's loader (tsx's own CLI would run it as a
  // child and SIGKILL it when it does not acknowledge a relayed signal within 30 ms).
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: stop() reaches the server processes too
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${readFileSync(logFile, "utf8").slice(-4000)}`);
    try {
      const r = await fetch(`${baseUrl}/api/health`);
      await r.text(); // an unread body keeps the connection busy and delays shutdown
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not become ready:\n${readFileSync(logFile, "utf8").slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const databaseUrl = opts.databaseUrl ?? embeddedUrl(dataDir);

  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* already gone */
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* gone */
      }
    }
    if (signal !== "SIGKILL" && !process.env.KEEP_TEST_DATA) rmSync(dataDir, { recursive: true, force: true });
  };
  return { baseUrl, port, databaseUrl, logFile, process: child, stop };
}

function embeddedUrl(dataDir: string): string {
  const info = JSON.parse(readFileSync(path.join(dataDir, "socket.json"), "utf8")) as { port: number };
  return `postgresql://postgres:postgres@127.0.0.1:${info.port}/postgres?sslmode=disable`;
}
