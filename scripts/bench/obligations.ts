// Benchmark of the obligations endpoints against a real server (no timed assertions).
//   npx tsx scripts/bench/obligations.ts                      # embedded PGlite
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5433/postgres npx tsx scripts/bench/obligations.ts
// Options: BENCH_N (requests per scenario, default 400), BENCH_CONCURRENCY (default 8).
// Builds the app first if the sources changed (like npm start).
import { execSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { ensureBuilt } from "../build-state";
import { benchOrganization } from "./organization";
import { registrationBody } from "./registration";
import { createTestDatabase, startServer } from "../../test/support/server";

const N = Number(process.env.BENCH_N ?? 400);
const C = Number(process.env.BENCH_CONCURRENCY ?? 8);

type Sample = { ms: number; status: number };

async function run(name: string, n: number, make: (i: number) => Promise<Response>, okStatus: number) {
  const samples: Sample[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: C }, async () => {
      for (;;) {
        const i = next++;
        if (i >= n) return;
        const t = performance.now();
        const res = await make(i);
        await res.arrayBuffer();
        samples.push({ ms: performance.now() - t, status: res.status });
      }
    }),
  );
  const total = (performance.now() - started) / 1000;
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(1);
  const bad = samples.filter((s) => s.status !== okStatus).length;
  console.log(
    `${name.padEnd(34)} n=${n} c=${C}  ${(n / total).toFixed(0).padStart(5)} req/s  p50 ${q(0.5)} ms  p95 ${q(0.95)} ms  p99 ${q(0.99)} ms${bad ? `  NON-${okStatus}: ${bad}` : ""}`,
  );
}

function rssMiB(pgid: number): number {
  try {
    const out = execSync(`ps -o rss= -g ${pgid}`, { encoding: "utf8" });
    return Math.round(
      out
        .split("\n")
        .filter(Boolean)
        .reduce((a, l) => a + Number(l.trim()), 0) / 1024,
    );
  } catch {
    return NaN;
  }
}

async function main() {
  ensureBuilt();
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const databaseUrl = adminUrl ? await createTestDatabase(adminUrl) : undefined;
  const server = await startServer({ databaseUrl, label: "bench", env: { LOG_LEVEL: "warn" } });
  try {
    const org = await benchOrganization(server.databaseUrl, "Bench Org");
    const base = `${server.baseUrl}/api/v1`;
    const headers = { authorization: `Bearer ${org.apiKey}`, "content-type": "application/json" };
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, { method: "POST", headers: { ...headers, "idempotency-key": randomUUID() }, body: JSON.stringify(body) });
    const get = (path: string) => fetch(`${base}${path}`, { headers });

    console.log(`backend: ${adminUrl ? "postgres" : "pglite"}; rss before: ${rssMiB(server.process.pid!)} MiB`);
    const ids: string[] = [];
    // The benchmarks' registration (scripts/bench/registration.ts), its invoice number the index.
    const body = (i: number) => ({ ...registrationBody(`${i}-${randomUUID()}`), business_context: { invoice_number: `B-${i}` } });
    await run(
      "POST /obligations (2 terms, 1 cond.)",
      N,
      async (i) => {
        const r = await post("/obligations", body(i));
        if (r.status === 201) ids.push(((await r.clone().json()) as { invoice: { id: string } }).invoice.id);
        return r;
      },
      201,
    );
    await run("GET /obligations?limit=100", Math.ceil(N / 2), () => get("/obligations?limit=100"), 200);
    await run("GET /obligations/{id}", N, (i) => get(`/obligations/${ids[i % ids.length]}`), 200);
    await run(
      "POST /obligations/{id}/actions (msg)",
      N,
      (i) =>
        post(`/obligations/${ids[i % ids.length]}/actions`, { action: "post_message", expected_version: 1 + Math.floor(i / ids.length), message: `m${i}` }),
      200,
    );
    await run("GET /invoices/{id}/delivery (404 type)", Math.ceil(N / 4), (i) => get(`/invoices/${ids[i % ids.length]}/delivery`), 404);
    console.log(`rss after: ${rssMiB(server.process.pid!)} MiB`);
  } finally {
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
