// Benchmark of the scheduled-events sweep (lib/scheduler/sweep.ts) over a large backlog, on
// PostgreSQL:
//
//   npx tsx scripts/bench/scheduler.ts postgres://postgres@127.0.0.1:5433/postgres [obligations] [seconds]
//
// Creates a scratch database on that server, migrates it, inserts `obligations` rows
// (default 1000000) for one organization with SQL generate_series — registered 70 days ago,
// deadlines spread over the 60 days before and after today, one in five RECONCILED, every
// fourth with three payment terms (one triggered by a date that passed) — all due for a sweep
// (next_scheduled_on = today, as after migration 0013 or a long downtime). Then sweeps with
// the production code (batches of SCHEDULER_BATCH_SIZE, default 100) for `seconds` (default 60)
// with one sweeper, then as long again with two concurrent sweepers, and prints obligations/s
// and events/s; finally times a sweep when nothing is due (1M rows, none due). The scratch
// database is dropped at the end. Bounded: at most 2 x `seconds` of sweeping.
import { randomBytes, randomUUID } from "node:crypto";
import os from "node:os";
import pg from "pg";
import { migrate } from "@/lib/db/migrate";

const adminUrl = process.argv[2];
const rows = Number(process.argv[3] ?? 1_000_000);
const seconds = Number(process.argv[4] ?? 60);
if (!adminUrl) {
  console.error("usage: tsx scripts/bench/scheduler.ts <postgres admin url> [obligations] [seconds]");
  process.exit(2);
}
process.env.APP_SECRET ??= "bench-app-secret-0123456789abcdef0123456789";
process.env.LOG_LEVEL = "silent";

async function main() {
  const name = `fos_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const client = new pg.Client({ connectionString: url });
  let disconnect = async () => {};
  try {
    await migrate(url);
    await client.connect();
    const org = randomUUID();
    await client.query("INSERT INTO organizations (id, name) VALUES ($1, 'bench')", [org]);
    let t = performance.now();
    await client.query(
      `INSERT INTO obligations (id, organization_id, reference, payment_reference, obligation_type, organization_role, external_namespace, external_id,
                                debtor_name, amount_minor, allocated_minor, currency, deadline, invoice_number, status, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'OBL-' || lpad(g::text, 10, '0'), fos_rf_reference(lpad(g::text, 10, '0')), 'invoice', 'creditor', 'bench', g::text,
              'Debtor ' || g, 30000 + g, CASE WHEN g % 5 = 0 THEN 30000 + g ELSE 0 END, 'EUR',
              (now() AT TIME ZONE 'UTC')::date + (g % 120 - 60), 'INV-' || g,
              CASE WHEN g % 5 = 0 THEN 'RECONCILED' ELSE 'PAYMENT_REQUESTED' END, now() - interval '70 days', now()
       FROM generate_series(1, $2::int) g`,
      [org, rows],
    );
    // Every fourth obligation: three terms (on registration; on a date 5 days ago, due 10 days
    // after; on a date in 20 days), 30/30/40 % of the amount.
    await client.query(
      `INSERT INTO payment_terms (id, organization_id, obligation_id, sequence, amount_type, percentage_basis_points, trigger_type, trigger_date, due_rule, due_days)
       SELECT gen_random_uuid(), o.organization_id, o.id, t.seq, 'percentage', t.bp, t.trig, (now() AT TIME ZONE 'UTC')::date + t.off, t.rule, t.days
       FROM obligations o CROSS JOIN (VALUES (1, 3000, 'immediately', 0, 'immediately', NULL::int),
                                             (2, 3000, 'specific_date', -5, 'days_after_trigger', 10),
                                             (3, 4000, 'specific_date', 20, 'immediately', NULL::int)) AS t(seq, bp, trig, off, rule, days)
       WHERE o.external_id::int % 4 = 0`,
    );
    await client.query("ANALYZE");
    console.log(`seeded ${rows} obligations in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    process.env.DATABASE_URL = url;
    const { sweepScheduled } = await import("@/lib/scheduler/sweep");
    const { disconnectDb } = await import("@/lib/db/client");
    disconnect = disconnectDb;

    const phase = async (label: string, sweepers: number) => {
      const until = Date.now() + seconds * 1000;
      let claimed = 0;
      let events = 0;
      const byType: Record<string, number> = {};
      t = performance.now();
      await Promise.all(
        Array.from({ length: sweepers }, async () => {
          while (Date.now() < until) {
            const s = await sweepScheduled({ budgetMs: Math.max(0, until - Date.now()) });
            claimed += s.claimed;
            for (const [k, v] of Object.entries(s.emitted)) {
              byType[k] = (byType[k] ?? 0) + v;
              events += v;
            }
            if (!s.more) break;
          }
        }),
      );
      const secs = (performance.now() - t) / 1000;
      console.log(
        `${label.padEnd(22)} ${claimed} obligations, ${events} events in ${secs.toFixed(1)} s: ` +
          `${Math.round(claimed / secs)} obligations/s, ${Math.round(events / secs)} events/s  ${JSON.stringify(byType)}`,
      );
    };
    await phase("1 sweeper", 1);
    await phase("2 sweepers", 2);
    const left = (await client.query("SELECT count(*)::int AS n FROM obligations WHERE next_scheduled_on <= (now() AT TIME ZONE 'UTC')::date")).rows[0].n;
    console.log(`still due after both phases: ${left} of ${rows}`);

    await client.query("UPDATE obligations SET next_scheduled_on = (now() AT TIME ZONE 'UTC')::date + 1 WHERE next_scheduled_on IS NOT NULL");
    await client.query("ANALYZE obligations");
    const idle: number[] = [];
    for (let i = 0; i < 20; i++) {
      const s = await sweepScheduled();
      idle.push(s.duration_ms);
    }
    idle.sort((a, b) => a - b);
    console.log(`sweep with nothing due (of ${rows}): median ${idle[10]} ms, max ${idle[19]} ms`);
    console.log(
      `load: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")} (${os.cpus().length} cores)`,
    );
  } finally {
    await disconnect();
    await client.end().catch(() => {});
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
