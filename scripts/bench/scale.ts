// Scale benchmark: the reads of the list, detail, search and dashboard overview at 10k and
// at 1M obligations per organization (plus another organization's 1M in the same tables),
// through the same domain functions the API and the dashboard call, on PostgreSQL.
//
//   npx tsx scripts/bench/scale.ts [postgres admin url] [small=10000] [large=1000000] [other=1000000]
//
// Seeds a scratch database with scripts/bench/seed.ts, times each read (median and p95 of
// SCALE_RUNS runs, default 20, after a warm-up) for the small and the large organization,
// prints the ratio large/small, and the EXPLAIN (ANALYZE, BUFFERS) plans of the list, search
// and overview statements for the large one. The dashboard overview is timed three ways: the
// scans it ran before snapshots (summary, aging, cash expected; SCALE_SCAN_RUNS runs, default
// 5, since the cash chart takes seconds at 1M), `loadOverview` as the page calls it
// (OVERVIEW_LIVE_MAX, default 5000: both organizations read their snapshot, computed in the
// warm-up) together with the page's other reads, and the computation of one snapshot (the
// worker's cost; SCALE_SCAN_RUNS runs). The database is dropped at the end unless
// SCALE_KEEP_DB=1; SCALE_DB=<database name> times a database kept that way instead of seeding
// a new one. The list's first page and the search are timed twice: through a client of their
// own, which computes every projection (the list stores texts only through the app's handle),
// and through the app's handle (`db()`), whose warm-up call stores the page's texts
// (lib/obligations/stored-projection.ts) so the timed calls read them, as the API does.
// Output also as JSON (SCALE_OUT, default bench-results/scale-<time>.json).
import { execSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { listObligations, listParams, listPick, type ObligationListQuery } from "@/lib/obligations/list-obligations";
import { sql as raw } from "kysely";
import { query } from "@/lib/db/query";
import { obligationsUpTo } from "@/lib/overview/store-overview-snapshot";
import { getObligationDetail } from "@/lib/obligations/get-obligation-detail";
import { summarizeObligations } from "@/lib/obligations/summarize-obligations";
import { ageReceivables } from "@/lib/overview/age-receivables";
import { expectCash } from "@/lib/overview/expect-cash";
import { loadOverview } from "@/lib/overview/load-overview";
import { storeOverviewSnapshot } from "@/lib/overview/store-overview-snapshot";
import { listRecentEvents } from "@/lib/events/list-recent-events";
import { summarizeUnallocatedPayments } from "@/lib/payments/summarize-payments";
import { todayUtc } from "@/lib/schemas/common";
import { db, disconnectDb } from "@/lib/db/client";
import { dropDatabase, seed, type Seeded } from "./seed";

const adminUrl = process.argv[2] ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5433/postgres";
const sizes = { small: Number(process.argv[3] ?? 10_000), large: Number(process.argv[4] ?? 1_000_000), other: Number(process.argv[5] ?? 1_000_000) };
const RUNS = Number(process.env.SCALE_RUNS ?? 20);
const SCAN_RUNS = Number(process.env.SCALE_SCAN_RUNS ?? 5);
const OUT = process.env.SCALE_OUT ?? path.join("bench-results", `scale-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
process.env.APP_SECRET ??= "bench-app-secret-0123456789abcdef0123456789";

const uptime = () => execSync("uptime", { encoding: "utf8" }).trim();

async function time(fn: () => Promise<unknown>, runs = RUNS) {
  await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] * 100) / 100;
  return { median: q(0.5), p95: q(0.95) };
}

async function main() {
  console.log(`machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB; ${uptime()}`);
  const t0 = performance.now();
  const s = process.env.SCALE_DB ? await kept(process.env.SCALE_DB) : await seed(adminUrl, sizes);
  const seedMs = Math.round(performance.now() - t0);
  console.log(`seeded ${JSON.stringify(sizes)} in ${seedMs} ms ${JSON.stringify(s.ms)}`);
  // lib/db's sql() opens its pool from DATABASE_URL (it sends through the client given here).
  process.env.DATABASE_URL = s.url;
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: s.url, max: 2 }) });
  const client = new pg.Client({ connectionString: s.url });
  await client.connect();
  const results: Record<string, unknown>[] = [];
  const plans: Record<string, string> = {};
  try {
    const deep = Math.max(0, Math.min(sizes.small, sizes.large) - 50);
    const today = todayUtc();
    const inTx = <T>(fn: (tx: Parameters<typeof loadOverview>[0]) => Promise<T>) => prisma.$transaction(fn, { maxWait: 60_000, timeout: 600_000 });
    const scenarios: { name: string; runs?: number; run: (org: string, someId: string, term: string) => Promise<unknown> }[] = [
      { name: "list first page (50)", run: (org) => listObligations(prisma, { organizationId: org, query: { limit: 50, offset: 0 } }) },
      { name: "list first page (50), texts stored", run: (org) => listObligations(db(), { organizationId: org, query: { limit: 50, offset: 0 } }) },
      { name: `list deep page (offset ${deep})`, run: (org) => listObligations(prisma, { organizationId: org, query: { limit: 50, offset: deep } }) },
      { name: "list sort=deadline", run: (org) => listObligations(prisma, { organizationId: org, query: { limit: 50, offset: 0, sort: "deadline" } }) },
      {
        name: "list sort=outstanding desc",
        run: (org) => listObligations(prisma, { organizationId: org, query: { limit: 50, offset: 0, sort: "outstanding" } }),
      },
      {
        name: "list status+currency+overdue",
        run: (org) =>
          listObligations(prisma, { organizationId: org, query: { limit: 50, offset: 0, status: ["PAYMENT_REQUESTED"], currency: "USD", overdue: true } }),
      },
      {
        name: "search (one reference)",
        run: (org, _id, term) => listObligations(prisma, { organizationId: org, query: { limit: 50, offset: 0, search: term } }),
      },
      {
        name: "search (one reference), texts stored",
        run: (org, _id, term) => listObligations(db(), { organizationId: org, query: { limit: 50, offset: 0, search: term } }),
      },
      {
        name: "search (debtor email)",
        run: (org) => listObligations(prisma, { organizationId: org, query: { limit: 50, offset: 0, search: "ap4242@customer" } }),
      },
      { name: "detail", run: (org, id) => getObligationDetail(prisma, { organizationId: org, obligationId: id, revealLink: true }) },
      { name: "overview (summarize)", run: (org) => summarizeObligations(prisma, { organizationId: org, overdueLimit: 8 }) },
      { name: "aging, scan", runs: SCAN_RUNS, run: (org) => ageReceivables(prisma, { organizationId: org, today }) },
      { name: "cash expected, scan", runs: SCAN_RUNS, run: (org) => expectCash(prisma, { organizationId: org, today }) },
      // The page before snapshots: the three scans, then events and unallocated payments.
      {
        name: "overview page reads, live (before)",
        runs: SCAN_RUNS,
        run: (org) => inTx((tx) => loadOverview(tx, { organizationId: org, today, liveMax: Number.MAX_SAFE_INTEGER }).then(() => pageRest(tx, org))),
      },
      // The worker's cost: one snapshot computed and stored.
      { name: "snapshot computation (worker)", runs: SCAN_RUNS, run: (org) => inTx((tx) => storeOverviewSnapshot(tx, { organizationId: org, today })) },
      // As the page calls it now (OVERVIEW_LIVE_MAX default: both organizations are above it).
      { name: "loadOverview (snapshot)", run: (org) => inTx((tx) => loadOverview(tx, { organizationId: org, today })) },
      { name: "overview page reads (snapshot)", run: (org) => inTx((tx) => loadOverview(tx, { organizationId: org, today }).then(() => pageRest(tx, org))) },
    ];
    const pageRest = (tx: Parameters<typeof loadOverview>[0], org: string) =>
      Promise.all([listRecentEvents(tx, { organizationId: org, limit: 12 }), summarizeUnallocatedPayments(tx, { organizationId: org })]);
    // One obligation in the middle of the organization (detail), and the search terms: the
    // references of RUNS + 1 obligations spread over it, one per timed call (the cost of a
    // trigram search depends on the term's trigrams; one term would time its luck).
    const pick = async (org: string) => {
      const n = org === s.small ? sizes.small : sizes.large;
      const r = await client.query<{ id: string; reference: string }>(
        `SELECT id, reference FROM (SELECT id, reference, row_number() OVER (ORDER BY created_at, id) AS k
           FROM obligations WHERE organization_id = $1) x WHERE k % $2 = 0 ORDER BY k`,
        [org, Math.max(1, Math.floor(n / (RUNS + 1)))],
      );
      const middle = r.rows[Math.floor(r.rows.length / 2)];
      let next = 0;
      return { id: middle.id, reference: middle.reference, term: () => r.rows[next++ % r.rows.length].reference.slice(4) };
    };
    const small = await pick(s.small);
    const large = await pick(s.large);
    // The texts of every term's answer, stored once through the app's handle (for the
    // "texts stored" search; each term is used once per round of RUNS + 1 calls).
    for (const [org, o] of [
      [s.small, small],
      [s.large, large],
    ] as const) {
      for (let i = 0; i <= RUNS; i++) await listObligations(db(), { organizationId: org, query: { limit: 50, offset: 0, search: o.term() } });
    }
    for (const sc of scenarios) {
      const a = await time(() => sc.run(s.small, small.id, small.term()), sc.runs);
      const b = await time(() => sc.run(s.large, large.id, large.term()), sc.runs);
      const ratio = Math.round((b.median / a.median) * 100) / 100;
      results.push({ scenario: sc.name, small: a, large: b, ratio });
      console.log(
        `${sc.name.padEnd(36)} ${String(sizes.small).padStart(8)}: ${String(a.median).padStart(8)} ms (p95 ${a.p95})   ${String(sizes.large).padStart(8)}: ${String(b.median).padStart(8)} ms (p95 ${b.p95})   x${ratio}`,
      );
    }
    // Plans of the statements behind the list, search and overview for the large organization.
    const explain = async (label: string, compiled: { sql: string; parameters: readonly unknown[] }) => {
      const r = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${compiled.sql}`, compiled.parameters as unknown[]);
      plans[label] = r.rows.map((x: Record<string, string>) => x["QUERY PLAN"]).join("\n");
    };
    const idsSql = (i: { organizationId: string } & ObligationListQuery) => listPick(query(db()), i, listParams(i.organizationId, i)).compile();
    await explain("list first page (ids)", idsSql({ organizationId: s.large, limit: 50, offset: 0 }));
    await explain(`list deep page offset ${deep} (ids)`, idsSql({ organizationId: s.large, limit: 50, offset: deep }));
    await explain("list sort=outstanding (ids)", idsSql({ organizationId: s.large, limit: 50, offset: 0, sort: "outstanding" }));
    await explain("search by reference (ids)", idsSql({ organizationId: s.large, limit: 50, offset: 0, search: large.reference.slice(4) }));
    await explain("search by debtor email (ids)", idsSql({ organizationId: s.large, limit: 50, offset: 0, search: "ap4242@customer" }));
    const k = query(db());
    await explain(
      "overview groups",
      k
        .selectFrom("obligations")
        .select([
          "status",
          "currency",
          "organization_role",
          raw<number>`count(*)::int`.as("n"),
          raw<string>`sum(amount_minor)::text`.as("amount"),
          raw<string>`sum(allocated_minor)::text`.as("allocated"),
        ])
        .where("organization_id", "=", s.large)
        .groupBy(["status", "currency", "organization_role"])
        .compile(),
    );
    // The overview's reads that stay live above OVERVIEW_LIVE_MAX: the probe (count of at most
    // limit + 1 index entries, and the snapshot row) and the most-overdue list.
    await explain(
      "overview probe (limit 5000)",
      k
        .selectFrom(raw<{ one: number }>`(SELECT 1)`.as("one"))
        .leftJoin("overview_snapshots as s", (j) => j.on("s.organization_id", "=", s.large))
        .select([obligationsUpTo(k, s.large, 5001).as("n"), "s.computed_for", "s.computed_at", "s.data"])
        .compile(),
    );
    await explain(
      "most overdue (8)",
      k
        .selectFrom("obligations")
        .select(["id", "reference", "deadline", "amount_minor", "allocated_minor"])
        .where("organization_id", "=", s.large)
        .where(raw<boolean>`status <> 'RECONCILED'`)
        .where("deadline", "<", raw<Date>`${today}::date`)
        .orderBy(["deadline", "created_at", "id"])
        .limit(8)
        .compile(),
    );
    for (const [k, v] of Object.entries(plans)) console.log(`\n### ${k}\n${v}`);
  } finally {
    await prisma.$disconnect();
    await client.end();
    await disconnectDb();
    if (!process.env.SCALE_KEEP_DB) await dropDatabase(adminUrl, s.name);
  }
  const after = uptime();
  console.log(`\n${after}`);
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify({ sizes, seedMs, seedSteps: s.ms, runs: RUNS, uptimeAfter: after, results, plans }, null, 2));
  console.log(`results: ${OUT}`);
}

// A database seeded earlier (SCALE_KEEP_DB=1 or scripts/bench/seed.ts): its organizations by name.
async function kept(name: string): Promise<Seeded> {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  try {
    const r = await c.query<{ id: string; name: string }>("SELECT id, name FROM organizations WHERE name LIKE 'Scale %'");
    const org = (k: string) => r.rows.find((x) => x.name === `Scale ${k}`)?.id ?? "";
    const n = await c.query<{ organization_id: string; n: number }>("SELECT organization_id, count(*)::int AS n FROM obligations GROUP BY 1");
    const size = (id: string) => n.rows.find((x) => x.organization_id === id)?.n ?? 0;
    Object.assign(sizes, { small: size(org("small")), large: size(org("large")), other: size(org("other")) });
    process.env.SCALE_KEEP_DB = "1";
    return { url: u.toString(), name, small: org("small"), large: org("large"), other: org("other"), ms: {} };
  } finally {
    await c.end();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
