// npm run bench: the API under load against a production build on PostgreSQL, next to
// pgbench replaying the very SQL statements the API sends (same run, same database).
//
//   npm run bench
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5433/postgres BENCH_SECONDS=10 BENCH_CONNECTIONS=8,32 npm run bench
//   BENCH_ONLY=register,list,detail npm run bench            # a subset of the scenarios
//   BENCH_LOG_LEVEL=info npm run bench                        # the servers' LOG_LEVEL (default warn)
//   BENCH_LOAD=wrk npm run bench                              # wrk (Debian's package) for floor, register, list, detail
//
// Every scenario runs `BENCH_SECONDS` (default 10) per connection count (default 8 and 32)
// with autocannon (or wrk, BENCH_LOAD=wrk: scripts/bench/wrk.ts) against 127.0.0.1 only. Output: a markdown table on stdout and a JSON
// file (BENCH_OUT, default bench-results/run-<time>.json). Figures are reported, never
// asserted; the ratio to pgbench in the same run is the robust one on a shared machine.
//
// How the pgbench replay is built: the bench database gets `log_statement = all`, a first
// server instance serves a few captured requests while the PostgreSQL server log (its
// stderr file, BENCH_PG_LOG, default /tmp/pgshared/log) records every statement with its
// parameters; the parameters are inlined as literals, values that are new in each request
// (ids, keys, references, token hashes: they differ between two captures and are not in
// the request itself) get a per-transaction random suffix, and pgbench runs the resulting
// script (-M simple: one round trip per statement, like the driver). Logging is then
// switched off and a fresh server instance serves the measured load.
import { execSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { ensureBuilt } from "../build-state";
import { benchOrganization } from "./organization";
import { registrationBody } from "./registration";
import { capture, runPgbench } from "./replay";
import { runWrk, WRK, type LoadResult, type WrkSpec } from "./wrk";
import { TEST_CRON_SECRET, createTestDatabase, serverProcessIds, startServer, type TestServer } from "../../test/support/server";

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5433/postgres";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? "8,32").split(",").map(Number);
const ONLY = process.env.BENCH_ONLY?.split(",");
const PG_LOG = process.env.BENCH_PG_LOG ?? "/tmp/pgshared/log";
const OUT = process.env.BENCH_OUT ?? path.join("bench-results", `run-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
const CAPTURES = Number(process.env.BENCH_CAPTURES ?? 16);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
// The load generator of the timed window: autocannon (default) or wrk (BENCH_LOAD=wrk,
// scripts/bench/wrk.ts) for the scenarios that describe their requests for it (floor,
// register, list, detail); the others stay on autocannon.
const LOAD = process.env.BENCH_LOAD === "wrk" ? "wrk" : "autocannon";
if (LOAD === "wrk" && !existsSync(WRK)) throw new Error(`BENCH_LOAD=wrk needs ${WRK} (Debian's package wrk)`);
const WEBHOOK_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 400);
// An Accept-Encoding header on every measured request (e.g. "gzip, deflate, br", what fetch and
// browsers send; by default none, as wrk and autocannon send none), except the action
// scenario's, whose answers the bench reads.
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING;
const encoded = (headers: Record<string, string> | undefined, readsBody: boolean): Record<string, string> =>
  ACCEPT_ENCODING && !readsBody ? { ...headers, "accept-encoding": ACCEPT_ENCODING } : { ...headers };
const warmed = new Set<string>();

type Row = {
  scenario: string;
  connections: number;
  rps: number; // successful (expected-status) responses per second
  p50: number;
  p99: number;
  ok: number;
  conflicts: number; // 409 (counted apart from errors)
  errors: number; // anything else: other statuses, socket errors, timeouts
  rssMaxMiB: number;
  cpuMsPerReq?: number; // server process CPU (user + system) per response: robust to the machine's load
  dbCpuMsPerReq?: number; // the local PostgreSQL server's processes, per response (absent for a remote database)
  loadCpuMsPerReq?: number; // the load generator (this process), per response
  pgbenchTps?: number;
  ratio?: number;
  note?: string;
};

const uptime = () => execSync("uptime", { encoding: "utf8" }).trim();
const want = (s: string) => !ONLY || ONLY.includes(s);

// ------------------------------------------------------------------ server memory

// Resident set of the server processes together, MiB.
function vmRssMiB(pids: number[]): number {
  if (pids.length === 0) return NaN;
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
    } catch {
      return NaN;
    }
  }
  return Math.round(kb / 1024);
}

// A process's /proc/<pid>/stat: its name, its CPU (utime + stime) and that of its children
// waited for (cutime + cstime), in clock ticks. Throws for a process that is gone.
function procStat(pid: number | "self"): { name: string; ticks: number; childTicks: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const close = stat.lastIndexOf(")");
  const f = stat.slice(close + 2).split(" ");
  return { name: stat.slice(stat.indexOf("(") + 1, close), ticks: Number(f[11]) + Number(f[12]), childTicks: Number(f[13]) + Number(f[14]) };
}

// CPU seconds (user + system) the server processes have used so far.
function cpuSeconds(pids: number[]): number {
  if (pids.length === 0) return NaN;
  let ticks = 0;
  for (const pid of pids) {
    try {
      ticks += procStat(pid).ticks;
    } catch {
      return NaN;
    }
  }
  return ticks / CLK_TCK;
}
// CPU ticks of each process of the local PostgreSQL server (every process named `postgres`:
// the postmaster, its backends, WAL writer, autovacuum): where the rest of a 2-core machine's
// CPU goes. A backend that starts during the window counts whole; one that ends is not counted.
function postgresTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const p = procStat(Number(name));
      if (p.name === "postgres") ticks.set(Number(name), p.ticks);
    } catch {
      /* gone meanwhile */
    }
  }
  return ticks;
}
function postgresCpuSince(before: Map<number, number>): number {
  let t = 0;
  for (const [pid, now] of postgresTicks()) t += now - (before.get(pid) ?? 0);
  return t / CLK_TCK;
}
// This process's CPU with that of its children waited for (wrk): the load generator's.
function ownCpuSeconds(): number {
  const p = procStat("self");
  return (p.ticks + p.childTicks) / CLK_TCK;
}
const CLK_TCK = (() => {
  try {
    return Number(execSync("getconf CLK_TCK", { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

// ------------------------------------------------------------------ load

type Req = { method: string; path: string; headers?: Record<string, string>; body?: string };

async function load(
  server: TestServer,
  scenario: string,
  connections: number,
  next: () => Req,
  okStatus: number,
  onBody?: (status: number, body: string) => void,
  wrk?: WrkSpec,
): Promise<Row> {
  // A server that has gone already (ps finds no group) is measured as NaN.
  let pids: number[] = [];
  try {
    pids = serverProcessIds(server);
  } catch {
    /* no such process group */
  }
  if (!warmed.has(scenario)) {
    // Untimed warm-up: the first calls of a route load and compile its modules.
    warmed.add(scenario);
    await autocannon({
      url: server.baseUrl,
      connections: 4,
      duration: WARMUP_SECONDS,
      timeout: 30,
      requests: [
        {
          setupRequest: (req: Record<string, unknown>) => {
            const r = next();
            return { ...req, ...r, headers: encoded(r.headers, onBody !== undefined) };
          },
          ...(onBody ? { onResponse: (st: number, b: string) => onBody(st, b) } : {}),
        },
      ],
    } as never);
  }
  let rssMax = vmRssMiB(pids);
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, vmRssMiB(pids) || 0)), 250);
  const cpuBefore = cpuSeconds(pids);
  const dbBefore = postgresTicks();
  const loadBefore = ownCpuSeconds();
  const byWrk = LOAD === "wrk" && wrk !== undefined;
  const m = byWrk
    ? await runWrk(server.baseUrl, { ...wrk, headers: encoded(wrk.headers, false) }, connections, SECONDS)
    : await runAutocannon(server, connections, next, onBody);
  clearInterval(sampler);
  const cpuUsed = cpuSeconds(pids) - cpuBefore;
  const dbUsed = dbBefore.size > 0 ? postgresCpuSince(dbBefore) : NaN;
  const loadUsed = ownCpuSeconds() - loadBefore;
  const count = (c: number) => m.codes[String(c)] ?? 0;
  const total = Object.values(m.codes).reduce((a, n) => a + n, 0);
  const ok = count(okStatus);
  const conflicts = count(409);
  return {
    scenario,
    ...(byWrk ? { note: "wrk" } : {}),
    connections,
    rps: Math.round((ok / m.seconds) * 10) / 10,
    p50: m.p50,
    p99: m.p99,
    ok,
    conflicts,
    errors: total - ok - conflicts + m.socketErrors + m.timeouts,
    rssMaxMiB: rssMax,
    cpuMsPerReq: perResponse(cpuUsed, total),
    dbCpuMsPerReq: perResponse(dbUsed, total),
    loadCpuMsPerReq: perResponse(loadUsed, total),
  };
}

// The timed window driven by autocannon, in this process; the same figures as wrk gives.
async function runAutocannon(server: TestServer, connections: number, next: () => Req, onBody?: (status: number, body: string) => void): Promise<LoadResult> {
  const result = await autocannon({
    url: server.baseUrl,
    connections,
    duration: SECONDS,
    timeout: 30,
    requests: [
      {
        setupRequest: (req: Record<string, unknown>) => {
          const r = next();
          return { ...req, method: r.method, path: r.path, headers: encoded(r.headers, onBody !== undefined), body: r.body };
        },
        ...(onBody ? { onResponse: (status: number, body: string) => onBody(status, body) } : {}),
      },
    ],
  } as never);
  const r = result as unknown as {
    statusCodeStats?: Record<string, { count: number }>;
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    duration: number;
  };
  const codes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, st]) => [code, st.count]));
  return { p50: r.latency.p50, p99: r.latency.p99, seconds: r.duration, codes, socketErrors: r.errors, timeouts: r.timeouts };
}

function perResponse(seconds: number, responses: number): number | undefined {
  return responses > 0 && Number.isFinite(seconds) ? Math.round((seconds * 1000 * 100) / responses) / 100 : undefined;
}

// ------------------------------------------------------------------ the fixture

type Fixture = { apiKey: string; organizationId: string };

async function createFixture(server: TestServer): Promise<Fixture> {
  return benchOrganization(server.databaseUrl);
}

function client(server: TestServer, f: Fixture) {
  const base = `${server.baseUrl}/api/v1`;
  const auth = { authorization: `Bearer ${f.apiKey}` };
  return {
    async post(p: string, body: unknown, headers: Record<string, string> = {}) {
      const r = await fetch(`${base}${p}`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", "idempotency-key": randomUUID(), ...headers },
        body: JSON.stringify(body),
      });
      const text = await r.text();
      if (r.status >= 300) throw new Error(`POST ${p}: ${r.status} ${text}`);
      return JSON.parse(text);
    },
    async get(p: string) {
      const r = await fetch(`${base}${p}`, { headers: auth });
      const text = await r.text();
      if (r.status >= 300) throw new Error(`GET ${p}: ${r.status} ${text}`);
      return JSON.parse(text);
    },
  };
}

async function adminQuery(sql: string) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

// ------------------------------------------------------------------ main

async function main() {
  ensureBuilt();
  const started = new Date().toISOString();
  const machine = { nproc: os.cpus().length, memGiB: Math.round(os.totalmem() / 2 ** 30), uptimeBefore: uptime() };
  console.log(`machine: ${machine.nproc} cores, ${machine.memGiB} GiB; ${machine.uptimeBefore}`);
  if (ACCEPT_ENCODING) console.log(`Accept-Encoding: ${ACCEPT_ENCODING} (all scenarios but the action's)`);
  const databaseUrl = await createTestDatabase(ADMIN_URL);
  const dbName = new URL(databaseUrl).pathname.slice(1);
  const dir = mkdtempSync(path.join(os.tmpdir(), "fos-bench-"));
  // The recipient rate limit off: the exchange scenario sends each of its 40 links hundreds of
  // times a second, which the default limit (60 a minute per link) answers with 429.
  const env = { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn", WEBHOOK_WORKER: "off", RECIPIENT_RATE_LIMIT_PER_MINUTE: "0" };
  const rows: Row[] = [];
  const captures: Record<string, unknown> = {};

  // 1. Capture the SQL of registration and allocation (logging on for this database only).
  let server = await startServer({ databaseUrl, label: "bench-capture", env });
  const f = await createFixture(server);
  let api = client(server, f);
  let regScripts: string[] = [];
  let allocScripts: string[] = [];
  const canCapture = (() => {
    try {
      statSync(PG_LOG);
      return true;
    } catch {
      return false;
    }
  })();
  if (canCapture) {
    await adminQuery(`ALTER DATABASE ${dbName} SET log_statement = 'all'`);
    await server.stop();
    server = await startServer({ databaseUrl, label: "bench-capture", env });
    api = client(server, f);
    await api.post("/obligations", registrationBody(randomUUID())); // warm up (first-call compilation)
    const reg = await capture({ adminUrl: ADMIN_URL, pgLog: PG_LOG }, databaseUrl, dir, "register", CAPTURES, async () => {
      const body = registrationBody(randomUUID());
      await api.post("/obligations", body);
      // (the external id is new in each request and unique while live: the replay varies it)
      return `/obligations ${JSON.stringify({ ...body, external_reference: undefined })}`;
    });
    regScripts = reg.files;
    captures.register = { statements: reg.statements, selects: reg.selects, transactions: reg.transactions };
    const pays: string[] = [];
    const obls: string[] = [];
    for (let i = 0; i < CAPTURES + 2; i++) {
      pays.push((await api.post("/payments", { amount_minor: "900000000", currency: "EUR", received_on: "2026-11-01" })).id);
      obls.push((await api.post("/obligations", registrationBody(randomUUID()))).obligation.id);
    }
    await api.post(`/payments/${pays[CAPTURES + 1]}/allocations`, { obligation_id: obls[CAPTURES + 1], amount_minor: "1", expected_version: 1 });
    const alloc = await capture({ adminUrl: ADMIN_URL, pgLog: PG_LOG }, databaseUrl, dir, "allocate", CAPTURES, async (i) => {
      const body = { obligation_id: obls[i], amount_minor: "1", expected_version: 1 };
      await api.post(`/payments/${pays[i]}/allocations`, body);
      return `/payments/${pays[i]}/allocations ${JSON.stringify(body)}`;
    });
    allocScripts = alloc.files;
    captures.allocate = { statements: alloc.statements, selects: alloc.selects, transactions: alloc.transactions };
    await adminQuery(`ALTER DATABASE ${dbName} RESET log_statement`);
    console.log(`captured: registration ${JSON.stringify(captures.register)}, allocation ${JSON.stringify(captures.allocate)} (scripts in ${dir})`);
  } else {
    console.log(`no PostgreSQL server log at ${PG_LOG}: pgbench replay skipped`);
  }
  await server.stop();

  // An experiment's SQL on the bench database before the measured server starts (e.g. a
  // dropped index), applied after the capture so the replay's statements are the same.
  if (process.env.BENCH_SETUP_SQL) {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    await c.query(process.env.BENCH_SETUP_SQL).finally(() => c.end());
    console.log(`BENCH_SETUP_SQL applied: ${process.env.BENCH_SETUP_SQL}`);
  }

  // 2. The measured server (no statement logging).
  server = await startServer({ databaseUrl, label: "bench", env });
  api = client(server, f);
  const auth = { authorization: `Bearer ${f.apiKey}` };
  const json = { ...auth, "content-type": "application/json" };
  const pgbenchFor: Record<string, string[]> = { register: regScripts, allocate: allocScripts };

  const record = (row: Row) => {
    const scripts = pgbenchFor[row.scenario];
    if (scripts?.length) {
      row.pgbenchTps = Math.round(runPgbench(databaseUrl, scripts, row.connections, SECONDS) * 10) / 10;
      row.ratio = Math.round((row.rps / row.pgbenchTps) * 100) / 100;
    }
    rows.push(row);
    console.log(
      `${row.scenario.padEnd(22)} c=${String(row.connections).padStart(2)} ${String(row.rps).padStart(7)} req/s p50 ${row.p50} ms p99 ${row.p99} ms ok ${row.ok} 409 ${row.conflicts} err ${row.errors} rss ${row.rssMaxMiB} MiB cpu ${row.cpuMsPerReq ?? "-"} ms/req db ${row.dbCpuMsPerReq ?? "-"} load ${row.loadCpuMsPerReq ?? "-"}${row.pgbenchTps ? ` pgbench ${row.pgbenchTps} tps ratio ${row.ratio}` : ""}`,
    );
  };

  // The floor: the framework and the pipeline up to the credential check, no database
  // (GET /session without credentials answers 401). What any endpoint costs at least.
  for (const c of CONNECTIONS) {
    if (!want("floor")) break;
    record(
      await load(server, "floor (401, no db)", c, () => ({ method: "GET", path: "/api/v1/session" }), 401, undefined, {
        method: "GET",
        paths: ["/api/v1/session"],
      }),
    );
  }
  // Registration
  for (const c of CONNECTIONS) {
    if (!want("register")) break;
    record(
      await load(
        server,
        "register",
        c,
        () => ({
          method: "POST",
          path: "/api/v1/obligations",
          headers: { ...json, "idempotency-key": randomUUID() },
          body: JSON.stringify(registrationBody(randomUUID())),
        }),
        201,
        undefined,
        {
          method: "POST",
          paths: ["/api/v1/obligations"],
          headers: { ...json, "idempotency-key": "%N%" },
          body: JSON.stringify(registrationBody("%N%")),
        },
      ),
    );
  }
  // Make sure there are obligations to read and act on.
  const have = (await api.get("/obligations?limit=100")).items as { id: string; version: number }[];
  for (let i = have.length; i < 100; i++) have.push((await api.post("/obligations", registrationBody(randomUUID()))).obligation);
  const ids = have.map((o) => o.id);

  let k = 0;
  for (const c of CONNECTIONS) {
    if (!want("list")) break;
    record(
      await load(server, "list (limit 50)", c, () => ({ method: "GET", path: "/api/v1/obligations?limit=50", headers: auth }), 200, undefined, {
        method: "GET",
        paths: ["/api/v1/obligations?limit=50"],
        headers: auth,
      }),
    );
  }
  for (const c of CONNECTIONS) {
    if (!want("detail")) break;
    record(
      await load(server, "detail", c, () => ({ method: "GET", path: `/api/v1/obligations/${ids[k++ % ids.length]}`, headers: auth }), 200, undefined, {
        method: "GET",
        paths: ids.map((id) => `/api/v1/obligations/${id}`),
        headers: auth,
      }),
    );
  }
  // An action on 20 obligations, with the version the client last saw (concurrent requests
  // on one obligation race: the loser gets 409 version_conflict, counted apart).
  if (want("action")) {
    const versions = new Map<string, number>();
    for (const id of ids.slice(0, 20)) versions.set(id, (await api.get(`/obligations/${id}`)).version);
    const targets = ids.slice(0, 20);
    for (const c of CONNECTIONS) {
      record(
        await load(
          server,
          "action (expected date)",
          c,
          () => {
            const id = targets[k++ % targets.length];
            return {
              method: "POST",
              path: `/api/v1/obligations/${id}/actions`,
              headers: { ...json, "idempotency-key": randomUUID() },
              body: JSON.stringify({ action: "set_expected_payment_date", expected_version: versions.get(id), expected_payment_date: "2027-01-15" }),
            };
          },
          200,
          (status, body) => {
            if (status !== 200) return;
            const o = JSON.parse(body).obligation as { id: string; version: number };
            if ((versions.get(o.id) ?? 0) < o.version) versions.set(o.id, o.version);
          },
        ),
      );
    }
  }
  // Payment recording
  for (const c of CONNECTIONS) {
    if (!want("payment")) break;
    record(
      await load(
        server,
        "payment record",
        c,
        () => ({
          method: "POST",
          path: "/api/v1/payments",
          headers: { ...json, "idempotency-key": randomUUID() },
          body: JSON.stringify({ amount_minor: "900000000", currency: "EUR", received_on: "2026-11-01", payer_name: "Bench Customer" }),
        }),
        201,
      ),
    );
  }
  // Allocation: 1 minor unit of one of 64 payments to an obligation not allocated yet
  // (version 1), so requests do not race on versions.
  if (want("allocate")) {
    const pays: string[] = [];
    for (let i = 0; i < 64; i++) pays.push((await api.post("/payments", { amount_minor: "900000000", currency: "EUR", received_on: "2026-11-01" })).id);
    const c0 = new pg.Client({ connectionString: databaseUrl });
    await c0.connect();
    const fresh = (
      await c0.query<{ id: string }>(
        "SELECT id FROM obligations WHERE organization_id = $1 AND version = 1 AND currency = 'EUR' AND organization_role = 'creditor' ORDER BY created_at",
        [f.organizationId],
      )
    ).rows.map((r) => r.id);
    await c0.end();
    let next = 0;
    for (const c of CONNECTIONS) {
      record(
        await load(
          server,
          "allocate",
          c,
          () => {
            const i = next++;
            return {
              method: "POST",
              path: `/api/v1/payments/${pays[i % pays.length]}/allocations`,
              headers: { ...json, "idempotency-key": randomUUID() },
              body: JSON.stringify({ obligation_id: fresh[i % fresh.length], amount_minor: "1", expected_version: 1 + Math.floor(i / fresh.length) }),
            };
          },
          200,
        ),
      );
    }
    rows[rows.length - 1].note = `${fresh.length} obligations at version 1 available`;
  }
  // Recipient: exchange the link token for a session, and read the invoice with it.
  if (want("recipient")) {
    const links: { requestId: string; token: string; cookie?: string }[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await api.post("/obligations", registrationBody(randomUUID()));
      const u = new URL(r.payment_request.hosted_url);
      links.push({ requestId: u.pathname.split("/").pop()!, token: u.hash.slice(1) });
    }
    for (const l of links) {
      const r = await fetch(`${server.baseUrl}/api/v1/recipient/contexts/${l.requestId}/session`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-request": "1", "idempotency-key": randomUUID() },
        body: JSON.stringify({ token: l.token }),
      });
      await r.text();
      l.cookie = r.headers.getSetCookie()[0]?.split(";")[0];
    }
    for (const c of CONNECTIONS) {
      record(
        await load(
          server,
          "recipient exchange",
          c,
          () => {
            const l = links[k++ % links.length];
            return {
              method: "POST",
              path: `/api/v1/recipient/contexts/${l.requestId}/session`,
              headers: { "content-type": "application/json", "x-service-request": "1", "idempotency-key": randomUUID() },
              body: JSON.stringify({ token: l.token }),
            };
          },
          200,
        ),
      );
    }
    for (const c of CONNECTIONS) {
      record(
        await load(
          server,
          "recipient invoice",
          c,
          () => {
            const l = links[k++ % links.length];
            return { method: "GET", path: `/api/v1/recipient/contexts/${l.requestId}/invoice`, headers: { cookie: l.cookie ?? "" } };
          },
          200,
        ),
      );
    }
  }
  // Webhook flush: deliveries queued to a local receiver, flushed by the cron endpoint.
  if (want("webhooks")) {
    let received = 0;
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received++;
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    const port = (receiver.address() as { port: number }).port;
    await api.post("/webhook-endpoints", { url: `http://127.0.0.1:${port}/hook`, secret: "bench-webhook-secret-0123456789abcdef" });
    // Each action records one event -> one delivery per endpoint (8 obligations in parallel).
    const queued = Math.ceil(WEBHOOK_EVENTS / 8) * 8;
    await Promise.all(
      ids.slice(50, 58).map(async (target) => {
        let v = (await api.get(`/obligations/${target}`)).version;
        for (let i = 0; i < queued / 8; i++) {
          v = (await api.post(`/obligations/${target}/actions`, { action: "post_message", expected_version: v, message: `m${i}` })).obligation.version;
        }
      }),
    );
    for (const c of CONNECTIONS.slice(0, 1)) {
      const before = received;
      const t0 = Date.now();
      const row = await load(
        server,
        "webhook flush (cron)",
        Math.min(c, 4),
        () => ({ method: "GET", path: "/api/v1/cron/webhooks", headers: { authorization: `Bearer ${TEST_CRON_SECRET}` } }),
        200,
      );
      const secs = (Date.now() - t0) / 1000;
      row.note = `${received - before} of ${queued} deliveries sent, ${Math.round((received - before) / secs)} deliveries/s`;
      record(row);
    }
    receiver.close();
  }

  await server.stop();
  const uptimeAfter = uptime();
  console.log(`\n${uptimeAfter}\n`);
  const table = [
    "| scenario | conn. | req/s | p50 ms | p99 ms | ok | 409 | errors | server RSS max MiB | server CPU ms/req | database CPU ms/req | load generator CPU ms/req | pgbench tps | API/pgbench |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.scenario}${r.note ? ` (${r.note})` : ""} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.ok} | ${r.conflicts} | ${r.errors} | ${r.rssMaxMiB} | ${r.cpuMsPerReq ?? ""} | ${r.dbCpuMsPerReq ?? ""} | ${r.loadCpuMsPerReq ?? ""} | ${r.pgbenchTps ?? ""} | ${r.ratio ?? ""} |`,
    ),
  ].join("\n");
  console.log(table);
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(
    OUT,
    JSON.stringify(
      {
        started,
        machine: { ...machine, uptimeAfter },
        seconds: SECONDS,
        connections: CONNECTIONS,
        acceptEncoding: ACCEPT_ENCODING ?? null,
        database: dbName,
        captures,
        rows,
      },
      null,
      2,
    ),
  );
  console.log(`\nresults: ${OUT}`);
  if (!process.env.BENCH_KEEP_DB) await adminQuery(`DROP DATABASE IF EXISTS ${dbName}`).catch(() => undefined);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
