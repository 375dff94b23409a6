// npm run bench:citus: the service on a Citus cluster next to plain PostgreSQL on the same
// machine (docs/scaling.md "Measured on the cluster").
//
//   npm run bench:citus
//   BENCH_CITUS_URL=postgresql://postgres@127.0.0.1:9700/postgres BENCH_PG_URL=postgres://postgres@127.0.0.1:5433/postgres \
//     BENCH_SECONDS=10 BENCH_CONNECTIONS=8,32 BENCH_ONLY=throughput,routing npm run bench:citus
//
// (a) throughput: registration (scripts/bench/registration.ts) through the production server
//     on a fresh database of each server, autocannon for BENCH_SECONDS per connection count:
//     successful responses per second and p99. Where Citus refuses the full registration
//     (conditions and terms), both databases get the plain one and the rows say so.
// (b) routing (Citus only): the hot paths one request at a time (registration, list, detail,
//     allocation, the payer's link exchange and invoice); the coordinator logs every statement
//     of the bench database (log_statement = all, its server log BENCH_CITUS_LOG, default
//     <data_directory>/log as cluster.sh writes it), and each statement a request sent is
//     EXPLAINed with its parameters: Citus's plan says whether it went to one shard (a router
//     plan, "Task Count: 1"), to one shard with the rest joined on the coordinator, to the
//     nodes' copy of a reference table, stayed on the coordinator (a plain local table or no
//     table), or went to several shards.
//     (citus_stat_statements would count the same per query but needs pg_stat_statements in
//     shared_preload_libraries, which cluster.sh does not set.)
// Output: tables on stdout and a JSON file (BENCH_OUT, default bench-results/citus-<time>.json).
// Each database is measured in a process of its own (the app's configuration is read once per process).
import { execSync, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { accessSync, constants, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { ensureBuilt } from "../build-state";
import { createTestDatabase, dropTestDatabase, startServer, type TestServer } from "../../test/support/server";
import { benchOrganization, type BenchOrganization } from "./organization";
import { plainRegistrationBody, registrationBody } from "./registration";
import { parseLog, readFrom } from "./replay";

const CITUS_URL = process.env.BENCH_CITUS_URL ?? "postgresql://postgres@127.0.0.1:9700/postgres";
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5433/postgres";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? "8,32").split(",").map(Number);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const ONLY = process.env.BENCH_ONLY?.split(",");
const OUT = process.env.BENCH_OUT ?? path.join("bench-results", `citus-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
const SERVER_ENV = { LOG_LEVEL: "warn", WEBHOOK_WORKER: "off" };

// body: the registration to send (the one Citus took), else the full one when the server takes it.
type Task = { kind: "throughput" | "routing"; label: string; adminUrl: string; out: string; body?: string };
type ThroughputRow = { database: string; connections: number; body: string; rps: number; p50: number; p99: number; ok: number; errors: number; note?: string };
// "one shard + coordinator": a subquery Citus sends to one shard first, its result then
// joined on the coordinator (a coordinator table in the same statement).
type Route = "one shard" | "one shard + coordinator" | "reference" | "coordinator" | "several shards" | "failed";
type Statement = { sql: string; route: Route; tasks?: number; tables: string[]; literals?: boolean; plan?: string; error?: string };
type RequestRouting = { request: string; status: number; error?: string; sent: number; logged: string[]; statements: Statement[] };

const uptime = () => execSync("uptime", { encoding: "utf8" }).trim();

// ------------------------------------------------------------------ the fresh database

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

function api(server: TestServer, org: BenchOrganization) {
  const base = `${server.baseUrl}/api/v1`;
  const auth = { authorization: `Bearer ${org.apiKey}` };
  // `anonymous`: without the API key (the payer's requests).
  const send = async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}, anonymous = false) => {
    const r = await fetch(`${base}${p}`, {
      method,
      headers: {
        ...(anonymous ? {} : auth),
        ...(body === undefined ? {} : { "content-type": "application/json", "idempotency-key": randomUUID() }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: r.status, json, text, cookie: r.headers.getSetCookie()[0]?.split(";")[0] };
  };
  return { send };
}

// The full registration when the server takes it, else the plain one (noted).
async function registration(server: TestServer, org: BenchOrganization, name?: string): Promise<{ make: (i: string) => unknown; name: string; note?: string }> {
  if (name === "plain") return { make: plainRegistrationBody, name, note: "plain registration, as on Citus" };
  const r = await api(server, org).send("POST", "/obligations", registrationBody(randomUUID()));
  if (r.status === 201) return { make: registrationBody, name: "full" };
  return { make: plainRegistrationBody, name: "plain", note: `full registration answered ${r.status}: ${r.text.slice(0, 200)}` };
}

// ------------------------------------------------------------------ (a) throughput

async function runLoad(server: TestServer, org: BenchOrganization, make: (i: string) => unknown, connections: number, seconds: number) {
  const result = (await autocannon({
    url: server.baseUrl,
    connections,
    duration: seconds,
    timeout: 30,
    requests: [
      {
        setupRequest: (req: Record<string, unknown>) => ({
          ...req,
          method: "POST",
          path: "/api/v1/obligations",
          headers: { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json", "idempotency-key": randomUUID() },
          body: JSON.stringify(make(randomUUID())),
        }),
      },
    ],
  } as never)) as {
    statusCodeStats?: Record<string, { count: number }>;
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    duration: number;
  };
  const codes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([c, s]) => [c, s.count]));
  const ok = codes["201"] ?? 0;
  const total = Object.values(codes).reduce((a, n) => a + n, 0);
  return {
    rps: Math.round((ok / result.duration) * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    errors: total - ok + result.errors + result.timeouts,
  };
}

async function throughput(task: Task): Promise<ThroughputRow[]> {
  const databaseUrl = await createTestDatabase(task.adminUrl);
  const server = await startServer({ databaseUrl, label: `bench-citus-${task.label}`, env: SERVER_ENV });
  try {
    const org = await benchOrganization(databaseUrl);
    const body = await registration(server, org, task.body);
    await runLoad(server, org, body.make, 4, WARMUP_SECONDS); // untimed: the first calls compile the route's modules
    const rows: ThroughputRow[] = [];
    for (const c of CONNECTIONS) {
      const m = await runLoad(server, org, body.make, c, SECONDS);
      rows.push({ database: task.label, connections: c, body: body.name, ...m, ...(body.note ? { note: body.note } : {}) });
      console.log(`${task.label} register (${body.name}) c=${c}: ${m.rps} req/s p50 ${m.p50} ms p99 ${m.p99} ms ok ${m.ok} errors ${m.errors}`);
    }
    return rows;
  } finally {
    await server.stop();
    await dropTestDatabase(task.adminUrl, databaseUrl).catch(() => undefined);
  }
}

// ------------------------------------------------------------------ (b) routing

// The server's own connections to the bench database (not the ones Citus opens between nodes).
async function appPids(adminUrl: string, databaseUrl: string): Promise<Set<number>> {
  const rows = await query<{ pid: number }>(
    adminUrl,
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND application_name NOT LIKE 'citus%' AND pid <> pg_backend_pid()",
    [new URL(databaseUrl).pathname.slice(1)],
  );
  return new Set(rows.map((r) => r.pid));
}

// A statement with its parameters written in as literals (as scripts/bench/replay.ts does for
// pgbench): Citus plans some statements with parameters only when it can see their values.
const withLiterals = (sql: string, params: (string | null)[]) =>
  sql.replace(/\$(\d+)/g, (_m, n) => {
    const v = params[Number(n) - 1];
    return v === null || v === undefined ? "NULL" : `'${v.replace(/'/g, "''")}'`;
  });

const NOT_PLANNED = /^\s*(begin|commit|rollback|start transaction|savepoint|release|set|reset|show|deallocate|discard)\b/i;

// Where Citus sends one statement, from its EXPLAIN: the Citus scans and their task counts,
// and the shards the tasks name (shard table names end in the shard id).
function classify(plan: string, shards: Map<string, { table: string; reference: boolean }>): Omit<Statement, "sql"> {
  const citusScans = plan.match(/Custom Scan \(Citus [^)]+\)/g) ?? [];
  const tasks = [...plan.matchAll(/Task Count: (\d+)/g)].map((m) => Number(m[1]));
  const touched = [...plan.matchAll(/\b([a-z_][a-z0-9_]*?)_(\d{6,})\b/g)].map((m) => shards.get(m[2])).filter((s) => s !== undefined);
  const tables = [...new Set(touched.map((s) => s.table))].sort();
  if (citusScans.length === 0) return { route: "coordinator", tables: [...new Set([...plan.matchAll(/ on (\w+)/g)].map((m) => m[1]))].sort() };
  const most = Math.max(0, ...tasks);
  if (most > 1) return { route: "several shards", tasks: tasks.reduce((a, n) => a + n, 0), tables };
  if (/Distributed Subplan/.test(plan)) return { route: "one shard + coordinator", tasks: tasks.reduce((a, n) => a + n, 0), tables };
  if (touched.length > 0 && touched.every((s) => s.reference)) return { route: "reference", tasks: most, tables };
  return { route: "one shard", tasks: most, tables };
}

async function routing(task: Task): Promise<{ registration: string; note?: string; requests: RequestRouting[] }> {
  const databaseUrl = await createTestDatabase(task.adminUrl);
  const dbName = new URL(databaseUrl).pathname.slice(1);
  const dataDir = (await query<{ d: string }>(task.adminUrl, "SELECT current_setting('data_directory') AS d"))[0].d;
  const pgLog = process.env.BENCH_CITUS_LOG ?? path.join(dataDir, "log");
  accessSync(pgLog, constants.R_OK); // the coordinator's server log (cluster.sh: <node dir>/log); run as root or postgres
  let server = await startServer({ databaseUrl, label: "bench-citus-routing", env: SERVER_ENV });
  try {
    const org = await benchOrganization(databaseUrl);
    const body = await registration(server, org);
    // Every statement of this database in the coordinator's log (this database only, not sent
    // on to the workers), for the server's connections opened from now on.
    await query(task.adminUrl, `SET citus.enable_ddl_propagation = off; ALTER DATABASE ${dbName} SET log_statement = 'all'`);
    await server.stop();
    server = await startServer({ databaseUrl, label: "bench-citus-routing", env: SERVER_ENV });
    const { send } = api(server, org);

    // The objects the requests act on: obligations with their payment links, payments.
    const made: { id: string; requestId?: string; token?: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await send("POST", "/obligations", body.make(randomUUID()));
      if (r.status !== 201) break;
      const u = r.json.payment_request?.hosted_url ? new URL(r.json.payment_request.hosted_url) : undefined;
      made.push({ id: r.json.obligation.id, requestId: u?.pathname.split("/").pop(), token: u?.hash.slice(1) });
    }
    const pays: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await send("POST", "/payments", { amount_minor: "900000000", currency: "EUR", received_on: "2026-11-01" });
      if (r.status === 201) pays.push(r.json.id);
    }
    const cookies: (string | undefined)[] = [];
    type Step = { name: string; call: (i: number) => Promise<{ status: number; text: string; cookie?: string }> };
    const steps: Step[] = [
      { name: "registration: POST /obligations", call: () => send("POST", "/obligations", body.make(randomUUID())) },
      { name: "list: GET /obligations?limit=50", call: () => send("GET", "/obligations?limit=50") },
      { name: "detail: GET /obligations/{id}", call: (i) => send("GET", `/obligations/${made[i]?.id ?? randomUUID()}`) },
      {
        name: "allocation: POST /payments/{id}/allocations",
        call: (i) =>
          send("POST", `/payments/${pays[i] ?? randomUUID()}/allocations`, {
            obligation_id: made[i]?.id ?? randomUUID(),
            amount_minor: "1",
            expected_version: 1,
          }),
      },
      {
        name: "payer's link exchange: POST /recipient/contexts/{id}/session",
        call: async (i) => {
          const r = await send(
            "POST",
            `/recipient/contexts/${made[i]?.requestId ?? randomUUID()}/session`,
            { token: made[i]?.token ?? "" },
            { "x-service-request": "1" },
            true,
          );
          cookies[i] = r.cookie;
          return r;
        },
      },
      {
        name: "payer's invoice: GET /recipient/contexts/{id}/invoice",
        call: (i) => send("GET", `/recipient/contexts/${made[i]?.requestId ?? randomUUID()}/invoice`, undefined, { cookie: cookies[i] ?? "" }, true),
      },
    ];

    // One request of each, after one untimed of the same kind on another object (the route's
    // modules loaded, the connection's prepared statements made).
    const captured: { name: string; status: number; error?: string; sent: { sql: string; params: (string | null)[] }[]; logged: string[] }[] = [];
    for (const step of steps) await step.call(0);
    for (const step of steps) {
      const pids = await appPids(task.adminUrl, databaseUrl);
      const before = statSync(pgLog).size;
      const r = await step.call(1);
      await new Promise((res) => setTimeout(res, 200)); // let the server log flush
      for (const p of await appPids(task.adminUrl, databaseUrl)) pids.add(p);
      const text = readFrom(pgLog, before);
      // Statements over read_intermediate_result are Citus's own (a subplan's result read back), not the server's.
      const sent = parseLog(text, pids).filter((x) => !/read_intermediate_result/.test(x.sql));
      // The database's errors for these connections (what made a request fail).
      const logged = [...text.matchAll(/ \[(\d+)\] ERROR: {2}([^\n]*)/g)].filter((m) => pids.has(Number(m[1]))).map((m) => m[2]);
      captured.push({ name: step.name, status: r.status, ...(r.status >= 300 ? { error: r.text.slice(0, 300) } : {}), sent, logged });
    }
    await query(task.adminUrl, `SET citus.enable_ddl_propagation = off; ALTER DATABASE ${dbName} RESET log_statement`);

    // EXPLAIN each statement with its parameters (not executed), on a connection of its own.
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      const shards = new Map(
        (
          await c.query<{ id: string; table: string; reference: boolean }>(
            "SELECT s.shardid::text AS id, s.logicalrelid::regclass::text AS table, p.partmethod = 'n' AS reference FROM pg_dist_shard s JOIN pg_dist_partition p USING (logicalrelid)",
          )
        ).rows.map((r) => [r.id, { table: r.table, reference: r.reference }]),
      );
      const requests: RequestRouting[] = [];
      for (const cap of captured) {
        const statements: Statement[] = [];
        for (const s of cap.sent) {
          if (NOT_PLANNED.test(s.sql)) continue;
          const explain = async (text: string, values: (string | null)[]) =>
            (await c.query<{ "QUERY PLAN": string }>(`EXPLAIN (COSTS OFF) ${text}`, values)).rows.map((r) => r["QUERY PLAN"]).join("\n");
          try {
            const plan = await explain(s.sql, s.params);
            statements.push({ sql: s.sql, ...classify(plan, shards), plan });
          } catch {
            try {
              const plan = await explain(withLiterals(s.sql, s.params), []);
              statements.push({ sql: s.sql, ...classify(plan, shards), literals: true, plan });
            } catch (e) {
              statements.push({ sql: s.sql, route: "failed", tables: [], error: (e as Error).message });
            }
          }
        }
        requests.push({
          request: cap.name,
          status: cap.status,
          ...(cap.error ? { error: cap.error } : {}),
          sent: cap.sent.length,
          logged: cap.logged,
          statements,
        });
      }
      return { registration: body.name, ...(body.note ? { note: body.note } : {}), requests };
    } finally {
      await c.end();
    }
  } finally {
    await server.stop();
    await dropTestDatabase(task.adminUrl, databaseUrl).catch(() => undefined);
  }
}

// ------------------------------------------------------------------ main

const ROUTES: Route[] = ["one shard", "one shard + coordinator", "reference", "coordinator", "several shards", "failed"];
const oneLine = (sql: string, n = 140) => {
  const s = sql.replace(/\s+/g, " ").trim();
  return s.length > n ? `${s.slice(0, n)}…` : s;
};

function child(task: Task): Promise<unknown> {
  return task.kind === "throughput" ? throughput(task) : routing(task);
}

// Runs one task in a process of its own and returns what it wrote (undefined when it failed).
function inChild(task: Omit<Task, "out">, dir: string): any {
  const out = path.join(dir, `${task.kind}-${task.label}.json`);
  const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench/citus.ts", "--child", JSON.stringify({ ...task, out })], { stdio: "inherit" });
  if (r.status !== 0) {
    console.log(`${task.kind} on ${task.label}: failed (exit ${r.status})`);
    return undefined;
  }
  return JSON.parse(readFileSync(out, "utf8"));
}

async function main() {
  ensureBuilt();
  const started = new Date().toISOString();
  const machine = { nproc: os.cpus().length, memGiB: Math.round(os.totalmem() / 2 ** 30), uptimeBefore: uptime() };
  console.log(`machine: ${machine.nproc} cores, ${machine.memGiB} GiB; ${machine.uptimeBefore}`);
  const citusVersion = (await query<{ v: string }>(CITUS_URL, "SELECT extversion AS v FROM pg_extension WHERE extname = 'citus'"))[0]?.v;
  if (!citusVersion) throw new Error(`no citus extension at ${CITUS_URL}`);
  const nodes = (await query<{ n: number }>(CITUS_URL, "SELECT count(*)::int AS n FROM pg_dist_node WHERE groupid <> 0"))[0].n;
  const dir = path.join(os.tmpdir(), `fos-bench-citus-${process.pid}`);
  mkdirSync(dir, { recursive: true });

  const want = (s: string) => !ONLY || ONLY.includes(s);
  const rows: ThroughputRow[] = [];
  if (want("throughput")) {
    // Citus first: plain PostgreSQL then sends the registration Citus took (the same work on both).
    const onCitus: ThroughputRow[] = inChild({ kind: "throughput", label: "citus", adminUrl: CITUS_URL }, dir) ?? [];
    rows.push(...(inChild({ kind: "throughput", label: "postgresql", adminUrl: PG_URL, body: onCitus[0]?.body }, dir) ?? []), ...onCitus);
  }
  const routed = want("routing") ? inChild({ kind: "routing", label: "citus", adminUrl: CITUS_URL }, dir) : undefined;
  rmSync(dir, { recursive: true, force: true });
  const uptimeAfter = uptime();
  console.log(`\n${uptimeAfter}\n`);

  if (rows.length) {
    console.log(
      [
        `Registration through the production server (${SECONDS} s per row, autocannon):`,
        "",
        "| database | conn. | registration | req/s | p50 ms | p99 ms | ok | errors |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
        ...rows.map((r) => `| ${r.database} | ${r.connections} | ${r.body} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.ok} | ${r.errors} |`),
        ...[...new Set(rows.filter((r) => r.note).map((r) => `\n${r.database}: ${r.note}`))],
      ].join("\n"),
    );
  }
  if (routed) {
    const requests = routed.requests as RequestRouting[];
    console.log(
      [
        "",
        `Statements per request on the coordinator (Citus ${citusVersion}, ${nodes} workers; EXPLAIN of each; registration: ${routed.registration}):`,
        "",
        `| request | status | sent | planned | ${ROUTES.join(" | ")} |`,
        `|---|---:|---:|---:|${ROUTES.map(() => "---:").join("|")}|`,
        ...requests.map(
          (q) =>
            `| ${q.request} | ${q.status} | ${q.sent} | ${q.statements.length} | ${ROUTES.map((r) => q.statements.filter((s) => s.route === r).length).join(" | ")} |`,
        ),
        "",
        "sent: statements on the wire, BEGIN and COMMIT included; planned: those EXPLAINed (the rest are BEGIN, COMMIT, SET).",
        "",
        "Statements not routed to one shard:",
        ...requests.flatMap((q) =>
          q.statements
            .filter((s) => s.route !== "one shard")
            .map(
              (s) =>
                `- ${q.request.split(":")[0]}: ${s.route}${s.tasks ? ` (${s.tasks} tasks)` : ""} [${s.tables.join(", ")}] ${oneLine(s.sql)}${s.error ? ` -- ${s.error}` : ""}`,
            ),
        ),
        ...requests.filter((q) => q.error).map((q) => `- ${q.request} answered ${q.status}: ${q.error} ${q.logged.map((l) => `[database: ${l}]`).join(" ")}`),
        ...(routed.note ? [`- registration: ${routed.note}`] : []),
      ].join("\n"),
    );
  }
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(
    OUT,
    JSON.stringify(
      { started, machine: { ...machine, uptimeAfter }, citus: { version: citusVersion, workers: nodes }, seconds: SECONDS, throughput: rows, routing: routed },
      null,
      2,
    ),
  );
  console.log(`\nresults: ${OUT}`);
}

if (process.argv[2] === "--child") {
  const task = JSON.parse(process.argv[3]) as Task;
  child(task)
    .then((result) => {
      writeFileSync(task.out, JSON.stringify(result));
      process.exit(0);
    })
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
