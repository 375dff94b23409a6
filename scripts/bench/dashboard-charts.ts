// Benchmark of the overview's charts and the obligations list's filtered reads and CSV
// export, on PostgreSQL, for one large organization among small ones.
//
//   npx tsx scripts/bench/dashboard-charts.ts postgres://postgres@127.0.0.1:5433/postgres [obligations]
//
// Creates a scratch database, migrates it, inserts `obligations` rows (default 100000) for
// one organization (plus 10% over 20 others); every fifth has two percentage payment terms
// (30% on registration, 70% 30 days after a date). Prints median / p95 of each read and the
// time of a whole CSV export (every batch); then drops the database.
import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { migrate } from "@/lib/db/migrate";
import { ageReceivables } from "@/lib/overview/age-receivables";
import { expectCash } from "@/lib/overview/expect-cash";
import { countListedObligations } from "@/lib/obligations/count-listed-obligations";
import { exportObligationsBatch, type ExportCursor } from "@/lib/dashboard/export-obligations";
import { listObligations } from "@/lib/obligations/list-obligations";

const adminUrl = process.argv[2];
const rows = Number(process.argv[3] ?? 100_000);
if (!adminUrl) {
  console.error("usage: tsx scripts/bench/dashboard-charts.ts <postgres admin url> [obligations]");
  process.exit(2);
}
process.env.APP_SECRET ??= "bench-app-secret-0123456789abcdef0123456789";

async function time(label: string, runs: number, fn: () => Promise<unknown>) {
  await fn(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(1);
  console.log(`${label.padEnd(52)} median ${q(0.5).padStart(7)} ms   p95 ${q(0.95).padStart(7)} ms`);
}

async function main() {
  const name = `fos_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const client = new pg.Client({ connectionString: url });
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 2 }) });
  try {
    await migrate(url);
    await client.connect();
    const big = randomUUID();
    const orgs = [big, ...Array.from({ length: 20 }, () => randomUUID())];
    for (const o of orgs) await client.query("INSERT INTO organizations (id, name) VALUES ($1, 'bench')", [o]);
    const t0 = performance.now();
    const total = Math.round(rows / 0.9);
    await client.query(
      `INSERT INTO obligations (id, organization_id, reference, payment_reference, obligation_type, organization_role, external_namespace, external_id,
                                debtor_name, creditor_name, amount_minor, allocated_minor, currency, deadline, invoice_number, status, created_at, updated_at)
       SELECT gen_random_uuid(),
              CASE WHEN g % 10 < 9 THEN $1::uuid ELSE ($2::uuid[])[1 + g % 20] END,
              'OBL-' || lpad(g::text, 10, '0'), fos_rf_reference(lpad(g::text, 10, '0')), 'invoice', CASE WHEN g % 7 = 0 THEN 'debtor' ELSE 'creditor' END, 'bench', g::text,
              'Debtor ' || g, 'Creditor ' || g, 10000 + g, CASE WHEN g % 5 = 0 THEN 10000 + g WHEN g % 5 = 1 THEN 5000 ELSE 0 END,
              ($3::text[])[1 + g % 4], current_date + (g % 240 - 120), 'INV-' || g,
              ($4::text[])[1 + g % 5], now() - make_interval(secs => g), now()
       FROM generate_series(1, $5::int) g`,
      [
        big,
        orgs.slice(1),
        ["EUR", "USD", "GBP", "JPY"],
        ["RECONCILED", "PARTIALLY_RECONCILED", "OBLIGATION_CAPTURED", "PAYMENT_REQUESTED", "PAYMENT_CLAIMED"],
        total,
      ],
    );
    await client.query(
      `INSERT INTO payment_terms (id, organization_id, obligation_id, sequence, amount_type, percentage_basis_points, trigger_type, trigger_date, due_rule, due_days)
       SELECT gen_random_uuid(), o.organization_id, o.id, t.seq, 'percentage', t.bp, t.trig,
              CASE WHEN t.trig = 'specific_date' THEN o.deadline - 20 END, t.rule, CASE WHEN t.rule = 'days_after_trigger' THEN 30 END
       FROM obligations o
       CROSS JOIN (VALUES (1, 3000, 'immediately', 'immediately'), (2, 7000, 'specific_date', 'days_after_trigger')) AS t(seq, bp, trig, rule)
       WHERE hashtext(o.id::text) % 5 = 0`,
    );
    await client.query("ANALYZE");
    const mine = (await client.query("SELECT count(*)::int AS n FROM obligations WHERE organization_id = $1", [big])).rows[0].n;
    const terms = (await client.query("SELECT count(*)::int AS n FROM payment_terms WHERE organization_id = $1", [big])).rows[0].n;
    console.log(
      `inserted ${total} obligations (${mine} in the large organization, ${terms} payment terms there) in ${Math.round(performance.now() - t0)} ms\n`,
    );

    const runs = 20;
    console.log("Overview charts");
    await time("  ageReceivables", runs, () => ageReceivables(prisma, { organizationId: big }));
    await time("  expectCash", runs, () => expectCash(prisma, { organizationId: big }));
    console.log("Filtered list");
    const q = { currency: "EUR" as const, overdue: true, sort: "outstanding" as const, direction: "desc" as const };
    await time("  listObligations EUR overdue by outstanding (50)", runs, () =>
      listObligations(prisma, { organizationId: big, query: { ...q, limit: 50, offset: 0 } }),
    );
    await time("  countListedObligations EUR overdue", runs, () => countListedObligations(prisma, { organizationId: big, query: q }));
    await time("  search 'Debtor 4711' (50)", runs, () =>
      listObligations(prisma, { organizationId: big, query: { search: "Debtor 4711", limit: 50, offset: 0 } }),
    );
    console.log("CSV export (every batch of 500, all of the organization's obligations, by deadline)");
    await time("  whole export", 3, async () => {
      let after: ExportCursor | undefined;
      let lines = 0;
      do {
        const b = await exportObligationsBatch(prisma, { organizationId: big, query: { sort: "deadline" }, after, batchSize: 500 });
        lines += b.lines.length;
        after = b.next;
      } while (after);
      if (lines !== mine) throw new Error(`exported ${lines} of ${mine}`);
    });
  } finally {
    await prisma.$disconnect();
    await client.end().catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
