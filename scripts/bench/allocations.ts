// Benchmark of POST /payments/{id}/allocations against the real server (built app), on
// PostgreSQL (argument: an admin URL; a scratch database is created and dropped) or, without
// an argument, on the embedded PGlite.
//
//   npx tsx scripts/bench/allocations.ts [postgres://postgres@127.0.0.1:5433/postgres] [n]
//
// Scenarios (n allocations each, default 300):
//   sequential      one client, one allocation at a time (latency without contention)
//   hot payment     one payment, 20 clients allocating it to different obligations at once
//                   (every allocation waits for the payment's row lock)
//   hot obligation  many payments, 20 clients allocating to one obligation at once; each
//                   client re-reads the obligation and retries on 409 version_conflict
// Prints allocations/s, p50/p95/max latency of the accepted calls and the attempts per
// accepted allocation. Correctness is the integration tests' job; this only measures.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { ensureBuilt } from "../build-state";
import { benchOrganization } from "./organization";
import { Api } from "../../test/support/api";
import { createTestDatabase, startServer } from "../../test/support/server";

const adminUrl = process.argv[2]?.startsWith("postgres") ? process.argv[2] : undefined;
const N = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 300);
const CLIENTS = 20;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

async function main() {
  ensureBuilt();
  const databaseUrl = adminUrl ? await createTestDatabase(adminUrl) : undefined;
  const server = await startServer({ databaseUrl, label: "bench", env: { WEBHOOK_WORKER: "off", LOG_LEVEL: "warn" } });
  try {
    const org = await benchOrganization(server.databaseUrl, "Bench");
    const api = new Api(server.baseUrl, org.apiKey);
    const ok = (r: { status: number; text: string }, s: number) => {
      if (r.status !== s) throw new Error(`${r.status} ${r.text}`);
    };
    const payment = async (amount: number) => {
      const r = await api.post("/payments", { amount_minor: String(amount), currency: "EUR", received_on: "2026-11-14" });
      ok(r, 201);
      return r.body.id as string;
    };
    const obligation = async (amount: number) => {
      const n = randomUUID().slice(0, 8);
      const r = await api.post("/obligations", {
        obligation_type: "invoice",
        external_reference: { namespace: "bench", id: n },
        debtor: { name: "Bench Debtor" },
        amount_minor: String(amount),
        currency: "EUR",
        deadline: "2026-12-31",
        business_context: { invoice_number: n },
      });
      ok(r, 201);
      return r.body.obligation.id as string;
    };
    const inBatches = async <T>(count: number, f: () => Promise<T>) => {
      const out: T[] = [];
      while (out.length < count) out.push(...(await Promise.all(Array.from({ length: Math.min(CLIENTS, count - out.length) }, f))));
      return out;
    };
    const report = (name: string, ms: number[], wallMs: number, attempts: number) =>
      console.log(
        `${name.padEnd(15)} ${ms.length} allocations in ${Math.round(wallMs)} ms = ${((ms.length * 1000) / wallMs).toFixed(1)}/s; ` +
          `p50 ${pct(ms, 50).toFixed(1)} ms, p95 ${pct(ms, 95).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms; ${(attempts / ms.length).toFixed(2)} attempts each`,
      );
    const timed = async (f: () => Promise<{ status: number; text: string }>) => {
      const t = performance.now();
      const r = await f();
      return { r, ms: performance.now() - t };
    };

    console.log(`backend: ${adminUrl ? "PostgreSQL" : "PGlite"}, ${N} allocations per scenario, ${CLIENTS} concurrent clients`);

    // sequential
    {
      const pay = await payment(N);
      const obls = await inBatches(N, () => obligation(1));
      const ms: number[] = [];
      const t0 = performance.now();
      for (const o of obls) {
        const { r, ms: m } = await timed(() => api.post(`/payments/${pay}/allocations`, { obligation_id: o, amount_minor: "1", expected_version: 1 }));
        ok(r, 200);
        ms.push(m);
      }
      report("sequential", ms, performance.now() - t0, N);
    }
    // hot payment
    {
      const pay = await payment(N);
      const obls = await inBatches(N, () => obligation(1));
      const ms: number[] = [];
      const t0 = performance.now();
      let i = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (i < obls.length) {
            const o = obls[i++];
            const { r, ms: m } = await timed(() => api.post(`/payments/${pay}/allocations`, { obligation_id: o, amount_minor: "1", expected_version: 1 }));
            ok(r, 200);
            ms.push(m);
          }
        }),
      );
      report("hot payment", ms, performance.now() - t0, N);
    }
    // hot obligation
    {
      const obl = await obligation(N);
      const pays = await inBatches(N, () => payment(1));
      const ms: number[] = [];
      let attempts = 0;
      const t0 = performance.now();
      let i = 0;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          let version = 1;
          while (i < pays.length) {
            const p = pays[i++];
            const t = performance.now();
            for (;;) {
              attempts++;
              const r = await api.post(`/payments/${p}/allocations`, { obligation_id: obl, amount_minor: "1", expected_version: version });
              if (r.status === 200) {
                version = r.body.obligation.version;
                break;
              }
              ok(r, 409);
              const g = await api.get(`/obligations/${obl}`);
              version = g.body.version;
            }
            ms.push(performance.now() - t);
          }
        }),
      );
      report("hot obligation", ms, performance.now() - t0, attempts);
    }
  } finally {
    await server.stop();
    if (databaseUrl && adminUrl) {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${new URL(databaseUrl).pathname.slice(1)} WITH (FORCE)`);
      await c.end();
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
