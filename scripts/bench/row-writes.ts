// What one mutation writes to PostgreSQL: WAL bytes and new versions of the obligation's row
// per request, for an action (set_expected_payment_date) and an allocation, each sent one at
// a time to a production build (docs/benchmarks.md, step 20). Counts, not timings: they do
// not depend on the machine's load.
//
//   npx tsx scripts/bench/row-writes.ts [postgres admin url] [n]
//
// WAL is the whole cluster's (pg_current_wal_lsn), so run it with nothing else writing to
// the same PostgreSQL server; row versions are the table's counters (pg_stat_user_tables
// n_tup_upd, of which n_tup_hot_upd were HOT), which an idle backend of the server reports
// within 10 s (the script waits 11 s before each reading).
import pg from "pg";
import { ensureBuilt } from "../build-state";
import { Api } from "../../test/support/api";
import { registration } from "../../test/support/bodies";
import { createTestDatabase, startServer } from "../../test/support/server";
import { benchOrganization } from "./organization";
import { dropDatabase } from "./seed";

const ADMIN_URL = process.argv[2] ?? "postgres://postgres@127.0.0.1:5433/postgres";
const N = Number(process.argv[3] ?? 200);

async function main() {
  ensureBuilt();
  const databaseUrl = await createTestDatabase(ADMIN_URL);
  const server = await startServer({ databaseUrl, label: "row-writes", env: { LOG_LEVEL: "warn", WEBHOOK_WORKER: "off" } });
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const org = await benchOrganization(databaseUrl, "Row writes");
    const api = new Api(server.baseUrl, org.apiKey);
    const post = async (path: string, body: unknown) => {
      const r = await api.post(path, body);
      if (r.status >= 300) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
      return r.body;
    };

    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const r = await post("/obligations", registration({ amount_minor: "1000001", deadline: "2027-06-30" }));
      ids.push(r.obligation.id);
    }
    const payment = await post("/payments", { amount_minor: "900000000", currency: "EUR", received_on: "2026-11-01" });

    const counters = async () => {
      await new Promise((r) => setTimeout(r, 11_000)); // an idle backend reports its counts within 10 s
      const s = await c.query(
        "SELECT pg_current_wal_lsn()::text AS lsn, n_tup_upd::int AS upd, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables WHERE relname = 'obligations'",
      );
      return s.rows[0] as { lsn: string; upd: number; hot: number };
    };
    const walSince = async (lsn: string) => Number((await c.query("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::bigint AS d", [lsn])).rows[0].d);

    const measure = async (label: string, each: (id: string) => Promise<unknown>) => {
      const before = await counters();
      for (const id of ids) await each(id);
      const wal = await walSince(before.lsn);
      const after = await counters();
      console.log(
        `${label.padEnd(28)} ${N} requests: WAL ${Math.round(wal / N)} bytes/request, obligation row versions ${((after.upd - before.upd) / N).toFixed(2)}/request (HOT ${((after.hot - before.hot) / N).toFixed(2)})`,
      );
    };
    await measure("action (expected date)", (id) =>
      post(`/obligations/${id}/actions`, { action: "set_expected_payment_date", expected_version: 1, expected_payment_date: "2027-01-15" }),
    );
    await measure("allocate", (id) => post(`/payments/${payment.id}/allocations`, { obligation_id: id, amount_minor: "1", expected_version: 2 }));
  } finally {
    await c.end();
    await server.stop();
    await dropDatabase(ADMIN_URL, new URL(databaseUrl).pathname.slice(1));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
