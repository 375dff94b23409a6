// npm run bench:scale-out: the deployment of docs/scaling.md on one machine, loopback only —
// HAProxy in front of 1, 2 and 4 instances, PgBouncer (pool_mode = transaction) behind them,
// a PostgreSQL cluster of its own — all started here and stopped at the end.
//
//   npm run bench:scale-out
//   SCALE_SECONDS=10 SCALE_CONNECTIONS=32 SCALE_INSTANCES=1,2,4 SCALE_ROLLING=2 npm run bench:scale-out
//
// Per instance count: registrations (POST /obligations) and lists (GET /obligations) through
// the whole chain for SCALE_SECONDS each at SCALE_CONNECTIONS (autocannon), with the most
// server connections PostgreSQL held meanwhile (pg_stat_activity) next to instances ×
// DB_POOL_MAX; beside them, pgbench replaying the API's own statements straight on
// PostgreSQL at the same connection count (scripts/bench/replay.ts, as npm run bench does).
// Then a rolling restart under continuous load: SCALE_ROLLING instances behind the balancer,
// each in turn SIGTERMed (it finishes what it serves, scripts/server.mjs) and started again
// once it has exited; failed requests (anything but 201/200) and the p99 over that window.
// Bounded: a fixed number of windows, each of fixed length; nothing reaches past 127.0.0.1.
// Output: a markdown table and a JSON file (bench-results/scale-out-<time>.json).
import { type ChildProcess, execFileSync, execSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { ensureBuilt } from "../build-state";
import { benchOrganization } from "./organization";
import { capture, runPgbench } from "./replay";
import { createTestDatabase, freePort, startServer } from "../../test/support/server";

const SECONDS = Math.min(Number(process.env.SCALE_SECONDS ?? 10), 120);
const CONNECTIONS = Math.min(Number(process.env.SCALE_CONNECTIONS ?? 32), 512);
const INSTANCES = (process.env.SCALE_INSTANCES ?? "1,2,4").split(",").map(Number);
const ROLLING = Math.min(Number(process.env.SCALE_ROLLING ?? 2), 8);
const POOL_MAX = 10; // DB_POOL_MAX of each instance (the default)
const BOUNCER_POOL = Number(process.env.SCALE_BOUNCER_POOL ?? 10); // PgBouncer's default_pool_size
const CAPTURES = 8;
const PGBIN = execSync("ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1", { encoding: "utf8" }).trim();
const OUT = path.join("bench-results", `scale-out-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);

const uptime = () => execSync("uptime", { encoding: "utf8" }).trim();
const asPostgres = (cmd: string) => execFileSync("su", ["postgres", "-c", cmd], { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });

type Row = {
  instances: number;
  scenario: "register" | "list";
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  failed: number;
  serverConnectionsMax: number;
  clientPoolMax: number; // instances × DB_POOL_MAX
  pgbenchTps?: number;
};

function registrationBody() {
  const i = randomUUID();
  return JSON.stringify({
    obligation_type: "invoice",
    external_reference: { namespace: "scale", id: `S-${i}` },
    debtor: { name: "Scale Customer", email: "ap@scale.example" },
    amount_minor: "125000",
    currency: "EUR",
    deadline: "2027-06-30",
    business_context: { invoice_number: `S-${i.slice(0, 12)}` },
  });
}

type Load = { rps: number; p50: number; p99: number; ok: number; failed: number };

// autocannon against the balancer; `stopWhen` ends an open-ended window (the rolling restart).
function drive(url: string, apiKey: string, scenario: "register" | "list" | "mixed", seconds: number, stopWhen?: Promise<unknown>): Promise<Load> {
  const auth = { authorization: `Bearer ${apiKey}` };
  let n = 0;
  const next = () => {
    const write = scenario === "register" || (scenario === "mixed" && n++ % 2 === 0);
    return write
      ? {
          method: "POST",
          path: "/api/v1/obligations",
          headers: { ...auth, "content-type": "application/json", "idempotency-key": randomUUID() },
          body: registrationBody(),
        }
      : { method: "GET", path: "/api/v1/obligations?limit=20", headers: auth };
  };
  return new Promise((resolve, reject) => {
    const inst = autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: seconds,
        timeout: 30,
        requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, ...next() }) }],
      },
      (
        err: Error | null,
        r: { statusCodeStats?: Record<string, { count: number }>; latency: { p50: number; p99: number }; errors: number; timeouts: number; duration: number },
      ) => {
        if (err) return reject(err);
        const codes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([c, s]) => [c, s.count]));
        const ok = (codes["201"] ?? 0) + (codes["200"] ?? 0);
        const all = Object.values(codes).reduce((a, b) => a + b, 0);
        resolve({ rps: Math.round((ok / r.duration) * 10) / 10, p50: r.latency.p50, p99: r.latency.p99, ok, failed: all - ok + r.errors + r.timeouts });
      },
    );
    stopWhen?.then(() => inst.stop());
  });
}

async function main() {
  ensureBuilt();
  delete process.env.TEST_POOLER_URL; // the instances' URLs are set here (test/support/server.ts would rewrite them)
  mkdirSync("bench-results", { recursive: true });
  const root = mkdtempSync(path.join(os.tmpdir(), "fos-scale-"));
  chmodSync(root, 0o755);
  execFileSync("chown", ["postgres", root]);
  const stops: (() => Promise<void> | void)[] = [];
  const machine = { nproc: os.cpus().length, memGiB: Math.round(os.totalmem() / 2 ** 30), uptimeBefore: uptime() };
  console.log(`machine: ${machine.nproc} cores, ${machine.memGiB} GiB; ${machine.uptimeBefore}`);
  try {
    // PostgreSQL, its own cluster (the server log is where the replay's statements are captured).
    const pgPort = await freePort();
    const pgLog = path.join(root, "postgres.log");
    asPostgres(`${PGBIN}/initdb -D ${root}/data -A trust -U postgres >/dev/null`);
    asPostgres(
      `${PGBIN}/pg_ctl -D ${root}/data -o '-p ${pgPort} -k ${root} -c listen_addresses=127.0.0.1 -c max_connections=200' -l ${pgLog} -w start >/dev/null`,
    );
    stops.push(() => void asPostgres(`${PGBIN}/pg_ctl -D ${root}/data -m fast stop >/dev/null`));
    const adminUrl = `postgres://postgres@127.0.0.1:${pgPort}/postgres`;

    // PgBouncer in transaction mode in front of it.
    const bouncerPort = await freePort();
    writeFileSync(
      path.join(root, "pgbouncer.ini"),
      [
        "[databases]",
        `* = host=127.0.0.1 port=${pgPort}`,
        "[pgbouncer]",
        "listen_addr = 127.0.0.1",
        `listen_port = ${bouncerPort}`,
        "unix_socket_dir =",
        "auth_type = trust",
        `auth_file = ${root}/users.txt`,
        "pool_mode = transaction",
        `default_pool_size = ${BOUNCER_POOL}`,
        "max_client_conn = 2000",
        "ignore_startup_parameters = extra_float_digits",
        `logfile = ${root}/pgbouncer.log`,
        `pidfile = ${root}/pgbouncer.pid`,
        "",
      ].join("\n"),
    );
    writeFileSync(path.join(root, "users.txt"), '"postgres" ""\n');
    execFileSync("chown", ["postgres", path.join(root, "pgbouncer.ini"), path.join(root, "users.txt")]);
    const bouncer = which("pgbouncer", "/usr/sbin/pgbouncer");
    asPostgres(`${bouncer} -d ${root}/pgbouncer.ini`);
    stops.push(() => void asPostgres(`kill $(cat ${root}/pgbouncer.pid)`));

    const databaseUrl = await createTestDatabase(adminUrl);
    const dbName = new URL(databaseUrl).pathname.slice(1);
    const pooled = new URL(databaseUrl);
    pooled.port = String(bouncerPort);
    const instanceEnv = {
      DATABASE_URL: pooled.toString(),
      DIRECT_DATABASE_URL: databaseUrl,
      DATABASE_POOLER: "transaction",
      DB_POOL_MAX: String(POOL_MAX),
      LOG_LEVEL: "warn",
    };
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    stops.push(() => admin.end());
    const held = async () =>
      Number(
        (await admin.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'", [dbName]))
          .rows[0].n,
      );

    // The replay: statements of registrations and lists captured from one instance's requests
    // (straight to PostgreSQL with DATABASE_POOLER=transaction: the statements a pooled
    // instance sends), replayed by pgbench on PostgreSQL directly.
    const first = await startServer({ databaseUrl, label: "scale-capture", env: { ...instanceEnv, DATABASE_URL: databaseUrl } });
    const org = await benchOrganization(databaseUrl, "Scale Org");
    await admin.query(`ALTER DATABASE ${dbName} SET log_statement = 'all'`);
    await first.stop();
    const capturing = await startServer({ databaseUrl, label: "scale-capture", env: { ...instanceEnv, DATABASE_URL: databaseUrl } });
    const post = async () => {
      const body = registrationBody();
      const r = await fetch(`${capturing.baseUrl}/api/v1/obligations`, {
        method: "POST",
        headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json", "idempotency-key": randomUUID() },
        body,
      });
      if (r.status !== 201) throw new Error(`capture: ${r.status} ${await r.text()}`);
      return `/obligations ${body}`;
    };
    await post();
    const dir = path.join(root, "replay");
    mkdirSync(dir);
    const reg = await capture({ adminUrl, pgLog }, databaseUrl, dir, "register", CAPTURES, post);
    const list = await capture({ adminUrl, pgLog }, databaseUrl, dir, "list", CAPTURES, async () => {
      const r = await fetch(`${capturing.baseUrl}/api/v1/obligations?limit=20`, { headers: { authorization: `Bearer ${org.apiKey}` } });
      await r.text();
      return "/obligations?limit=20";
    });
    await admin.query(`ALTER DATABASE ${dbName} RESET log_statement`);
    await capturing.stop();
    const replay = {
      register: Math.round(runPgbench(databaseUrl, reg.files, CONNECTIONS, SECONDS) * 10) / 10,
      list: Math.round(runPgbench(databaseUrl, list.files, CONNECTIONS, SECONDS) * 10) / 10,
    };
    console.log(`pgbench replay at c=${CONNECTIONS}: registration ${replay.register} tps (${reg.statements} statements), list ${replay.list} tps`);

    const rows: Row[] = [];
    const haproxy = which("haproxy", "/usr/sbin/haproxy");
    const balancerPort = await freePort();
    const startBalancer = (ports: number[]): ChildProcess => {
      const cfg = path.join(root, "haproxy.cfg");
      writeFileSync(cfg, haproxyConfig(balancerPort, ports));
      const log = openSync(path.join(root, "haproxy.log"), "a");
      return spawn(haproxy, ["-db", "-f", cfg], { stdio: ["ignore", log, log] });
    };
    const startInstances = async (n: number) => {
      const ports = await Promise.all(Array.from({ length: n }, () => freePort()));
      const servers = await Promise.all(ports.map((port, i) => startServer({ databaseUrl: pooled.toString(), port, label: `scale-${i}`, env: instanceEnv })));
      return { ports, servers };
    };
    const url = `http://127.0.0.1:${balancerPort}`;

    for (const n of INSTANCES) {
      const { ports, servers } = await startInstances(n);
      const lb = startBalancer(ports);
      try {
        await waitFor(async () => (await fetch(`${url}/api/health`).catch(() => undefined))?.ok === true);
        await drive(url, org.apiKey, "mixed", 3); // warm-up: every instance compiles its request path
        for (const scenario of ["register", "list"] as const) {
          let most = 0;
          const sampler = setInterval(
            () =>
              held().then(
                (h) => (most = Math.max(most, h)),
                () => undefined,
              ),
            250,
          );
          const m = await drive(url, org.apiKey, scenario, SECONDS);
          clearInterval(sampler);
          const row: Row = { instances: n, scenario, ...m, serverConnectionsMax: most, clientPoolMax: n * POOL_MAX, pgbenchTps: replay[scenario] };
          rows.push(row);
          console.log(
            `${n} instance(s) ${scenario.padEnd(8)} ${m.rps} req/s p50 ${m.p50} ms p99 ${m.p99} ms ok ${m.ok} failed ${m.failed}; PostgreSQL held ${most} connections (instances × pool: ${n * POOL_MAX})`,
          );
        }
      } finally {
        lb.kill("SIGTERM");
        await Promise.all(servers.map((s) => s.stop()));
      }
    }

    // The rolling restart under continuous load.
    const { ports, servers } = await startInstances(ROLLING);
    const lb = startBalancer(ports);
    let rolling: Load & { seconds: number; restarts: number };
    try {
      await waitFor(async () => (await fetch(`${url}/api/health`).catch(() => undefined))?.ok === true);
      await drive(url, org.apiKey, "mixed", 3);
      let restarted: () => void = () => undefined;
      const done = new Promise<void>((r) => (restarted = r));
      const t0 = Date.now();
      const loadRun = drive(url, org.apiKey, "mixed", 600, done);
      await new Promise((r) => setTimeout(r, 2000));
      for (let i = 0; i < servers.length; i++) {
        const s = servers[i];
        const exited = new Promise<number | null>((r) => s.process.once("exit", (code) => r(code)));
        process.kill(s.process.pid!, "SIGTERM");
        const code = await exited;
        console.log(`instance ${i} stopped (exit ${code}) after SIGTERM; starting it again`);
        servers[i] = await startServer({ databaseUrl: pooled.toString(), port: ports[i], label: `scale-${i}`, env: instanceEnv });
        await new Promise((r) => setTimeout(r, 3000)); // the balancer's health check sees it up (rise 2 × 1 s)
      }
      restarted();
      rolling = { ...(await loadRun), seconds: Math.round((Date.now() - t0) / 100) / 10, restarts: servers.length };
      console.log(
        `rolling restart of ${ROLLING} instances under load: ${rolling.seconds} s, ${rolling.ok} requests served, ${rolling.failed} failed, p99 ${rolling.p99} ms`,
      );
    } finally {
      lb.kill("SIGTERM");
      await Promise.all(servers.map((s) => s.stop()));
    }

    const balancerLog = readFileSync(path.join(root, "haproxy.log"), "utf8");
    const downs = (balancerLog.match(/ is DOWN/g) ?? []).length;
    console.log(`the balancer took an instance out ${downs} time(s) (health checks)`);
    const uptimeAfter = uptime();
    console.log(`\n${uptimeAfter}\n`);
    console.log(
      "| instances | scenario | req/s | p50 ms | p99 ms | ok | failed | server connections held (max) | instances × DB_POOL_MAX | pgbench replay tps |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|---|");
    for (const r of rows)
      console.log(
        `| ${r.instances} | ${r.scenario} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.ok} | ${r.failed} | ${r.serverConnectionsMax} | ${r.clientPoolMax} | ${r.pgbenchTps} |`,
      );
    writeFileSync(
      OUT,
      JSON.stringify(
        {
          machine: { ...machine, uptimeAfter },
          balancerDowns: downs,
          seconds: SECONDS,
          connections: CONNECTIONS,
          bouncerPool: BOUNCER_POOL,
          replay,
          rows,
          rolling,
        },
        null,
        2,
      ),
    );
    console.log(`\n${OUT}`);
  } finally {
    for (const f of stops.reverse()) await Promise.resolve(f()).catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
}

function which(cmd: string, fallback: string): string {
  try {
    return execSync(`command -v ${cmd}`, { encoding: "utf8", shell: "/bin/sh" }).trim() || fallback;
  } catch {
    return fallback;
  }
}

// Round robin over the instances, a health check every second (three failed checks in a row
// take an instance out: on a busy machine one check may be slow); a connection refused (an
// instance that stopped listening) or a connection closed before an answer is retried on
// another instance (the request is buffered, so a POST is resent whole; its Idempotency-Key
// makes a resend safe).
function haproxyConfig(port: number, ports: number[]): string {
  return [
    "global",
    "  maxconn 1000",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 60s",
    "  timeout server 60s",
    "  retries 3",
    "  option redispatch 1",
    "  retry-on conn-failure empty-response response-timeout",
    "frontend fe",
    `  bind 127.0.0.1:${port}`,
    "  default_backend instances",
    "backend instances",
    "  balance roundrobin",
    "  option httpchk GET /api/health",
    "  timeout check 5s",
    "  default-server inter 1s fall 3 rise 2",
    ...ports.map((p, i) => `  server s${i} 127.0.0.1:${p} check`),
    "",
  ].join("\n");
}

async function waitFor(ok: () => Promise<boolean>, ms = 30_000): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) if (await ok()) return;
  throw new Error("timed out");
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
