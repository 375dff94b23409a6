// What writing a registration's rows from JSON costs on Citus (docs/scaling.md "Rows written
// from JSON"), next to multi-row INSERT ... VALUES, one registration at a time:
//
//   npx tsx scripts/bench/citus-json-writes.ts
//   BENCH_CITUS_URL=postgresql://postgres@127.0.0.1:9700/postgres BENCH_PG_URL=postgres://postgres@127.0.0.1:5433/postgres BENCH_N=100
//
// On a fresh database of each server, one full registration (scripts/bench/registration.ts)
// goes through the production server; its rows (the obligation, condition, terms, context
// links, payment request, stored projection, its event) are read back and written again N
// times with new ids, each time in a transaction of its own, in one of two forms, alternating:
//   json:   the service's statements: the six tables in one INSERT ... SELECT FROM
//           json_populate_recordset with writing CTEs (lib/obligations/register-obligation.ts),
//           then the event with its webhook deliveries (lib/events/record-event.ts);
//   values: one INSERT ... VALUES per table with rows, the event likewise, and the deliveries
//           as INSERT ... SELECT from the organization's endpoints.
// Every statement of a transaction is sent at once (node-postgres pipeline mode, as the
// service's held-back writes are), BEGIN to COMMIT timed on the client. EXPLAIN shows how
// Citus runs each form. Output: a table on stdout and BENCH_OUT (bench-results/citus-json-writes-<time>.json).
import { execSync, spawnSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { ensureBuilt } from "../build-state";
import { createTestDatabase, dropTestDatabase, startServer } from "../../test/support/server";
import { benchOrganization } from "./organization";
import { registrationBody } from "./registration";

const CITUS_URL = process.env.BENCH_CITUS_URL ?? "postgresql://postgres@127.0.0.1:9700/postgres";
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5433/postgres";
const N = Number(process.env.BENCH_N ?? 100);
// BENCH_EVENT=json: the values form writes the event as the service does (from JSON), so the two
// forms differ in the six tables' insert only.
const EVENT_AS_JSON = process.env.BENCH_EVENT === "json";
// BENCH_TABLES=json: likewise the six tables, so the forms differ in the event's write only.
const TABLES_AS_JSON = process.env.BENCH_TABLES === "json";
const OUT = process.env.BENCH_OUT ?? path.join("bench-results", `citus-json-writes-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);

// The registration's tables in the order the service writes them.
const PARTS = ["obligations", "obligation_conditions", "payment_terms", "obligation_context_links", "payment_requests", "obligation_projections"] as const;
type Row = Record<string, unknown>;
type Template = Record<(typeof PARTS)[number] | "events", Row[]>;

const uptime = () => execSync("uptime", { encoding: "utf8" }).trim();
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

// The registration's rows again with new ids (every id but the organization's) and new values
// for the unique columns.
function fresh(t: Template, org: string): Template {
  const ids = new Map<string, string>();
  const text = JSON.stringify(t).replace(UUID, (u) => {
    if (u === org) return u;
    let n = ids.get(u);
    if (n === undefined) {
      n = randomUUID();
      ids.set(u, n);
    }
    return n;
  });
  const r = JSON.parse(text) as Template;
  const tag = randomBytes(6).toString("hex").toUpperCase();
  for (const o of r.obligations) Object.assign(o, { reference: `OBL-${tag}`, payment_reference: `RF00${tag}`, external_id: `B-${tag}` });
  for (const p of r.payment_requests) p.token_hash = randomBytes(32).toString("hex");
  return r;
}

const literal = (v: unknown) => (v === null || v === undefined ? "NULL" : `'${String(param(v)).replace(/'/g, "''")}'`);
const param = (v: unknown) => (v !== null && typeof v === "object" ? JSON.stringify(v) : v);

// The statements of one registration's write in a form: [text, values][].
function statements(form: "json" | "values", t: Template, org: string): [string, unknown[]][] {
  const event = t.events[0];
  if (form === "json") {
    const ctes = PARTS.slice(0, -1).map((table, i) => `w${i} AS (INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $${i + 1}::json))`);
    const last = PARTS.at(-1);
    return [
      [
        `WITH ${ctes.join(", ")} INSERT INTO ${last} SELECT * FROM json_populate_recordset(NULL::${last}, $${PARTS.length}::json)`,
        PARTS.map((p) => JSON.stringify(t[p])),
      ],
      [
        `WITH ev AS (INSERT INTO events SELECT * FROM json_populate_recordset(NULL::events, $1::json) RETURNING id, organization_id, type, created_at)
         INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
         SELECT gen_random_uuid(), e.organization_id, e.id, ev.id, 'pending', ev.created_at, ev.created_at, ev.created_at
           FROM ev JOIN webhook_endpoints e ON e.organization_id = ev.organization_id
          WHERE e.organization_id = $2 AND e.enabled AND e.deleted_at IS NULL`,
        [JSON.stringify(t.events), org],
      ],
    ];
  }
  const out: [string, unknown[]][] = [];
  if (TABLES_AS_JSON) out.push(statements("json", t, org)[0]);
  for (const table of TABLES_AS_JSON ? (["events"] as const) : EVENT_AS_JSON ? PARTS : ([...PARTS, "events"] as const)) {
    const rows = t[table];
    if (rows.length === 0) continue;
    const columns = Object.keys(rows[0]);
    const values: unknown[] = [];
    const tuples = rows.map((r) => `(${columns.map((c) => `$${values.push(param(r[c]))}`).join(", ")})`);
    out.push([`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${tuples.join(", ")}`, values]);
  }
  if (EVENT_AS_JSON) return [...out, statements("json", t, org)[1]];
  out.push([
    `INSERT INTO webhook_deliveries (id, organization_id, endpoint_id, event_id, status, next_attempt_at, created_at, updated_at)
     SELECT gen_random_uuid(), e.organization_id, e.id, $2::uuid, 'pending', $3::timestamptz, $3::timestamptz, $3::timestamptz
       FROM webhook_endpoints e WHERE e.organization_id = $1 AND e.enabled AND e.deleted_at IS NULL`,
    [org, event.id, event.created_at],
  ]);
  return out;
}

async function measure(label: string, adminUrl: string) {
  const databaseUrl = await createTestDatabase(adminUrl);
  const server = await startServer({ databaseUrl, label: `bench-json-${label}`, env: { LOG_LEVEL: "warn", WEBHOOK_WORKER: "off" } });
  let org: string;
  let obligationId: string;
  try {
    const o = await benchOrganization(databaseUrl);
    org = o.organizationId;
    const r = await fetch(`${server.baseUrl}/api/v1/obligations`, {
      method: "POST",
      headers: { authorization: `Bearer ${o.apiKey}`, "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify(registrationBody(randomUUID())),
    });
    const body = (await r.json()) as { obligation: { id: string } };
    if (r.status !== 201) throw new Error(`registration answered ${r.status}: ${JSON.stringify(body)}`);
    obligationId = body.obligation.id;
  } finally {
    await server.stop();
  }
  const c = new pg.Client({ connectionString: databaseUrl, pipeline: true } as pg.ClientConfig);
  await c.connect();
  try {
    const citus = (await c.query("SELECT 1 FROM pg_extension WHERE extname = 'citus'")).rowCount === 1;
    const template = {} as Template;
    for (const table of [...PARTS, "events"] as const) {
      const by = table === "obligations" ? "id" : "obligation_id";
      template[table] = (
        await c.query<{ j: Row[] }>(`SELECT coalesce(json_agg(t), '[]') AS j FROM ${table} t WHERE organization_id = $1 AND ${by} = $2`, [org, obligationId])
      ).rows[0].j;
    }
    const rows = Object.fromEntries(Object.entries(template).map(([k, v]) => [k, v.length]));
    // How Citus (or PostgreSQL) runs each statement of each form.
    const plans: Record<string, string[]> = {};
    for (const form of ["json", "values"] as const) {
      plans[form] = [];
      for (const [text, values] of statements(form, fresh(template, org), org)) {
        const explain = async (t: string, v: unknown[]) =>
          (await c.query<{ "QUERY PLAN": string }>(`EXPLAIN (COSTS OFF) ${t}`, v)).rows.map((x) => x["QUERY PLAN"]).join("\n");
        try {
          plans[form].push(await explain(text, values));
        } catch {
          // Citus plans some statements only with their values in sight (as scripts/bench/citus.ts does)
          plans[form].push(
            await explain(
              text.replace(/\$(\d+)/g, (_m, n) => literal(values[Number(n) - 1])),
              [],
            ).catch((e) => `EXPLAIN failed: ${e.message}`),
          );
        }
      }
    }
    const times: Record<"json" | "values", number[]> = { json: [], values: [] };
    const run = async (form: "json" | "values") => {
      const s = statements(form, fresh(template, org), org);
      const start = process.hrtime.bigint();
      await Promise.all([c.query("BEGIN"), ...s.map(([text, values]) => c.query(text, values)), c.query("COMMIT")]);
      times[form].push(Number(process.hrtime.bigint() - start) / 1e6);
    };
    for (let i = 0; i < 5; i++) {
      await run("json");
      await run("values");
    }
    times.json = [];
    times.values = [];
    for (let i = 0; i < N; i++) {
      if (i % 2 === 0) {
        await run("json");
        await run("values");
      } else {
        await run("values");
        await run("json");
      }
    }
    const stats = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 100) / 100;
      return { n: s.length, median: at(0.5), p90: at(0.9), mean: Math.round((s.reduce((a, b) => a + b, 0) / s.length) * 100) / 100 };
    };
    const summary = (text: string) => ({
      subplans: (text.match(/Distributed Subplan/g) ?? []).length,
      pulled: (text.match(/pull to coordinator/g) ?? []).length,
      tasks: [...text.matchAll(/Task Count: (\d+)/g)].map((m) => Number(m[1])),
    });
    return {
      label,
      citus,
      eventAsJson: EVENT_AS_JSON,
      tablesAsJson: TABLES_AS_JSON,
      rows,
      json: { ...stats(times.json), statements: plans.json.length, plans: plans.json.map(summary) },
      values: { ...stats(times.values), statements: plans.values.length, plans: plans.values.map(summary) },
      planText: plans,
    };
  } finally {
    await c.end();
    await dropTestDatabase(adminUrl, databaseUrl).catch(() => undefined);
  }
}

// Each database in a process of its own (the app's configuration is read once per process).
function inChild(label: string, url: string): Awaited<ReturnType<typeof measure>> | undefined {
  const out = path.join(os.tmpdir(), `fos-json-writes-${process.pid}-${label}.json`);
  const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench/citus-json-writes.ts", "--child", label, url, out], { stdio: "inherit" });
  if (r.status !== 0) {
    console.log(`${label}: failed (exit ${r.status})`);
    return undefined;
  }
  const result = JSON.parse(readFileSync(out, "utf8"));
  rmSync(out, { force: true });
  return result;
}

function main() {
  ensureBuilt();
  const before = uptime();
  console.log(before);
  const results = [];
  for (const [label, url] of [
    ["citus", CITUS_URL],
    ["postgresql", PG_URL],
  ] as const) {
    const r = inChild(label, url);
    if (!r) continue;
    results.push(r);
    console.log(`${label}: rows ${JSON.stringify(r.rows)}`);
    for (const form of ["json", "values"] as const) {
      const f = r[form];
      console.log(
        `  ${form}: ${f.statements} statements, median ${f.median} ms, p90 ${f.p90} ms, mean ${f.mean} ms (n=${f.n}); plans ${JSON.stringify(f.plans)}`,
      );
    }
  }
  const after = uptime();
  console.log(after);
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify({ started: before, ended: after, n: N, results }, null, 2));
  console.log(`results: ${OUT}`);
}

if (process.argv[2] === "--child") {
  const [label, url, out] = process.argv.slice(3);
  measure(label, url)
    .then((r) => {
      writeFileSync(out, JSON.stringify(r));
      process.exit(0);
    })
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
} else {
  main();
}
