// Benchmark of the reads behind the issuer dashboard's pages (the same domain functions the
// server components call), on PostgreSQL, for one large organization among small ones.
//
//   npx tsx scripts/bench/dashboard.ts postgres://postgres@127.0.0.1:5433/postgres [obligations]
//
// Creates a scratch database on that server, migrates it, inserts `obligations` rows
// (default 100000) for one organization (plus 10% spread over 20 others), each with its
// payment request and three events, runs every page's reads repeatedly and prints the
// median / p95 latency; then again for the overview with two candidate indexes that the
// migrations do not have. The scratch database is dropped at the end.
import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { migrate } from "@/lib/db/migrate";
import { summarizeObligations } from "@/lib/obligations/summarize-obligations";
import { listObligations } from "@/lib/obligations/list-obligations";
import { countObligations } from "@/lib/obligations/count-obligations";
import { listRecentEvents } from "@/lib/events/list-recent-events";
import { getObligationDetail } from "@/lib/obligations/get-obligation-detail";
import { listOpenObligations } from "@/lib/obligations/list-open-obligations";
import { summarizeUnallocatedPayments } from "@/lib/payments/summarize-payments";

const adminUrl = process.argv[2];
const rows = Number(process.argv[3] ?? 100_000);
if (!adminUrl) {
  console.error("usage: tsx scripts/bench/dashboard.ts <postgres admin url> [obligations]");
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
  console.log(`${label.padEnd(48)} median ${q(0.5).padStart(7)} ms   p95 ${q(0.95).padStart(7)} ms`);
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
              ($3::text[])[1 + g % 4], current_date + (g % 120 - 60), 'INV-' || g,
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
      `INSERT INTO payment_requests (id, organization_id, obligation_id, token_hash, expires_at)
       SELECT gen_random_uuid(), organization_id, id, md5(id::text), now() + interval '90 days' FROM obligations`,
    );
    await client.query(
      `INSERT INTO events (id, organization_id, type, obligation_id, actor_type, actor_label, data, created_at)
       SELECT gen_random_uuid(), o.organization_id, t.type, o.id, 'user', 'Bench User', '{}'::jsonb, o.created_at + make_interval(mins => t.n)
       FROM obligations o CROSS JOIN (VALUES (1, 'obligation.registered'), (2, 'obligation.payment_requested'), (3, 'obligation.message_posted')) AS t(n, type)`,
    );
    await client.query(
      `INSERT INTO payments (id, organization_id, amount_minor, allocated_minor, currency, received_on, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 20000, CASE WHEN g % 2 = 0 THEN 20000 ELSE 0 END, 'EUR', current_date, now(), now()
       FROM generate_series(1, $2::int) g`,
      [big, Math.max(1, Math.round(rows / 10))],
    );
    await client.query("ANALYZE");
    const mine = (await client.query("SELECT count(*)::int AS n FROM obligations WHERE organization_id = $1", [big])).rows[0].n;
    console.log(
      `inserted ${total} obligations (${mine} in the large organization), their payment requests and ${total * 3} events in ${Math.round(performance.now() - t0)} ms\n`,
    );
    const someId = (await client.query("SELECT id FROM obligations WHERE organization_id = $1 ORDER BY created_at DESC LIMIT 1", [big])).rows[0].id;

    const runs = 30;
    console.log("Overview /dashboard");
    await time("  summarizeObligations (counts, outstanding, overdue)", runs, () => summarizeObligations(prisma, { organizationId: big, overdueLimit: 8 }));
    await time("  listRecentEvents (12)", runs, () => listRecentEvents(prisma, { organizationId: big, limit: 12 }));
    await time("  summarizeUnallocatedPayments", runs, () => summarizeUnallocatedPayments(prisma, { organizationId: big }));
    console.log("List /dashboard/obligations");
    await time("  listObligations first page (50)", runs, () => listObligations(prisma, { organizationId: big, query: { limit: 50, offset: 0 } }));
    await time("  listObligations page at offset 5000", runs, () => listObligations(prisma, { organizationId: big, query: { limit: 50, offset: 5000 } }));
    await time("  countObligations", runs, () => countObligations(prisma, { organizationId: big }));
    console.log("Detail /dashboard/obligations/[id]");
    await time("  getObligationDetail", runs, () => getObligationDetail(prisma, { organizationId: big, obligationId: someId, revealLink: true }));
    console.log("Payment detail /dashboard/payments/[id] (allocation choices)");
    await time("  listOpenObligations EUR (100)", runs, () => listOpenObligations(prisma, { organizationId: big, currency: "EUR" }));

    // Candidate indexes (not in the migrations): what they would buy the overview.
    await client.query("CREATE INDEX bench_events_org_created ON events (organization_id, created_at DESC, id DESC)");
    await client.query("CREATE INDEX bench_obligations_open_deadline ON obligations (organization_id, deadline) WHERE status <> 'RECONCILED'");
    await client.query("ANALYZE");
    console.log(
      "Overview with candidate indexes events(organization_id, created_at desc, id desc), obligations(organization_id, deadline) where not reconciled",
    );
    await time("  summarizeObligations", runs, () => summarizeObligations(prisma, { organizationId: big, overdueLimit: 8 }));
    await time("  listRecentEvents (12)", runs, () => listRecentEvents(prisma, { organizationId: big, limit: 12 }));
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
