// Seeds a scratch PostgreSQL database for the scale benchmark (scripts/bench/scale.ts):
// organization S with `small` obligations, organization L with `large` ones, and another
// organization O with `other` ones (its rows sit in the same tables and indexes), all in SQL
// with generate_series (minutes, not hours).
//
//   npx tsx scripts/bench/seed.ts <postgres admin url> [small=10000] [large=1000000] [other=1000000]
//
// The mix: 60% invoices, 25% contractual (one condition, two payment terms: 30% now,
// 70% on the condition), 15% payment conditions; 1 in 5 the organization is the debtor;
// EUR/USD/GBP/CHF; statuses with matching allocated amounts (30% RECONCILED, 10%
// PARTIALLY_RECONCILED, ...); deadlines from 200 days ago to 200 days ahead; one payment
// request each; two events each; one business context per 50 obligations linked to them.
import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { migrate } from "@/lib/db/migrate";

export type Seeded = { url: string; name: string; small: string; large: string; other: string; ms: Record<string, number> };

export async function seed(adminUrl: string, sizes: { small: number; large: number; other: number }): Promise<Seeded> {
  const name = `fos_scale_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  await migrate(url);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const ms: Record<string, number> = {};
  const step = async (label: string, sql: string, params: unknown[] = []) => {
    const t = performance.now();
    await c.query(sql, params);
    ms[label] = (ms[label] ?? 0) + Math.round(performance.now() - t);
  };
  const orgs = { small: randomUUID(), large: randomUUID(), other: randomUUID() };
  try {
    await c.query("SET synchronous_commit = off");
    // References as registration makes them (randomReference in
    // lib/obligations/register-obligation.ts: 10 random Crockford base32 characters, nothing
    // of the organization in them), here derived from (organization, g) so that a seed is
    // repeatable. (Until 2026-11-26 they were g in hexadecimal plus an organization letter:
    // every reference of an organization then shared trigrams with it, and a search for one
    // reference read posting lists that grew with the organization; docs/benchmarks.md.)
    await c.query(`CREATE FUNCTION pg_temp.seed_reference(org uuid, g int) RETURNS text LANGUAGE sql IMMUTABLE AS $$
      SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + (get_byte(h, i) & 31), 1), '' ORDER BY i)
      FROM (SELECT decode(md5(org::text || ':' || g), 'hex') AS h) x, generate_series(0, 9) i
    $$`);
    for (const [k, id] of Object.entries(orgs)) await c.query("INSERT INTO organizations (id, name) VALUES ($1, $2)", [id, `Scale ${k}`]);
    for (const k of ["small", "large", "other"] as const) {
      const n = sizes[k];
      if (n <= 0) continue;
      const org = orgs[k];
      // g = 1..n; created_at one minute apart, newest = g = n
      await step(
        "obligations",
        `INSERT INTO obligations (id, organization_id, reference, payment_reference, obligation_type, organization_role, external_namespace, external_id,
           creditor_name, creditor_email, debtor_name, debtor_email, amount_minor, allocated_minor, currency, deadline, invoice_number, description,
           status, version, created_at, updated_at)
         SELECT gen_random_uuid(), $1::uuid, 'OBL-' || r, fos_rf_reference(r), t, role, 'erp', 'ERP-' || g,
           CASE WHEN role = 'creditor' THEN 'Scale Org' ELSE 'Supplier ' || (g % 3000) END,
           CASE WHEN role = 'creditor' THEN '' ELSE 'sales' || (g % 3000) || '@supplier.example' END,
           CASE WHEN role = 'debtor' THEN 'Scale Org' ELSE 'Customer ' || (g % 5000) || ' Ltd' END,
           CASE WHEN role = 'debtor' THEN '' ELSE 'ap' || (g % 5000) || '@customer.example' END,
           amt, CASE st WHEN 'RECONCILED' THEN amt WHEN 'PARTIALLY_RECONCILED' THEN amt / 2 ELSE 0 END,
           (ARRAY['EUR','EUR','USD','GBP','CHF'])[1 + g % 5], current_date + (g % 400 - 200), 'INV-' || lpad(g::text, 8, '0'), 'Scale seed',
           st, 1 + g % 4, now() - make_interval(mins => $2::int - g), now() - make_interval(mins => ($2::int - g) / 2)
         FROM (SELECT g, pg_temp.seed_reference($1::uuid, g) AS r,
                 CASE WHEN g % 20 < 12 THEN 'invoice' WHEN g % 20 < 17 THEN 'contractual' ELSE 'payment_condition' END AS t,
                 CASE WHEN g % 5 = 0 THEN 'debtor' ELSE 'creditor' END AS role,
                 1000 + (g::bigint * 7919) % 10000000 AS amt,
                 (ARRAY['RECONCILED','RECONCILED','RECONCILED','PARTIALLY_RECONCILED','OBLIGATION_CAPTURED','OBLIGATION_CAPTURED',
                        'PAYMENT_REQUESTED','PAYMENT_REQUESTED','PAYMENT_REQUESTED','PAYMENT_CLAIMED'])[1 + (g / 3) % 10] AS st
               FROM generate_series(1, $2::int) g) s`,
        [org, n],
      );
      await step(
        "payment_requests",
        `INSERT INTO payment_requests (id, organization_id, obligation_id, token_hash, expires_at, created_at, updated_at)
         SELECT gen_random_uuid(), organization_id, id, md5(id::text) || md5(reference), created_at + interval '90 days', created_at, created_at
         FROM obligations WHERE organization_id = $1::uuid`,
        [org],
      );
      await step(
        "conditions",
        `INSERT INTO obligation_conditions (id, organization_id, obligation_id, position, key, label, status, satisfied_on)
         SELECT gen_random_uuid(), organization_id, id, 1, 'acceptance', 'Acceptance',
           CASE WHEN status = 'RECONCILED' THEN 'satisfied' ELSE 'waiting' END, CASE WHEN status = 'RECONCILED' THEN deadline - 10 END
         FROM obligations WHERE organization_id = $1::uuid AND obligation_type = 'contractual'`,
        [org],
      );
      await step(
        "payment_terms",
        `INSERT INTO payment_terms (id, organization_id, obligation_id, sequence, amount_type, percentage_basis_points, trigger_type, condition_id, due_rule, due_days)
         SELECT gen_random_uuid(), c.organization_id, c.obligation_id, s.seq, 'percentage', s.bp, s.trig, CASE WHEN s.seq = 2 THEN c.id END, 'days_after_trigger', s.days
         FROM obligation_conditions c
         CROSS JOIN (VALUES (1, 3000, 'immediately', 14), (2, 7000, 'condition_satisfied', 30)) AS s(seq, bp, trig, days)
         WHERE c.organization_id = $1::uuid`,
        [org],
      );
      await step(
        "events",
        `INSERT INTO events (id, organization_id, type, obligation_id, actor_type, actor_label, data, created_at)
         SELECT gen_random_uuid(), o.organization_id, t.type, o.id, 'api_key', 'API key', jsonb_build_object('detail', jsonb_build_object('reference', o.reference)),
           o.created_at + make_interval(secs => t.n)
         FROM obligations o CROSS JOIN (VALUES (1, 'obligation.registered'), (2, 'obligation.payment_requested')) AS t(n, type)
         WHERE o.organization_id = $1::uuid`,
        [org],
      );
      await step(
        "contexts",
        `INSERT INTO business_contexts (id, organization_id, type, kind, name, reference, created_at)
         SELECT gen_random_uuid(), $1::uuid, 'project', 'group', 'Project ' || g, 'PRJ-' || g, now() - make_interval(mins => g)
         FROM generate_series(1, greatest(1, $2::int / 50)) g`,
        [org, n],
      );
      await step(
        "context_links",
        `INSERT INTO obligation_context_links (id, organization_id, obligation_id, context_id, relationship_type, created_at)
         SELECT gen_random_uuid(), o.organization_id, o.id, c.id, 'related', o.created_at
         FROM (SELECT id, organization_id, created_at, row_number() OVER (ORDER BY created_at) AS rn FROM obligations WHERE organization_id = $1::uuid) o
         JOIN (SELECT id, row_number() OVER (ORDER BY created_at) AS cn FROM business_contexts WHERE organization_id = $1::uuid) c
           ON c.cn = 1 + (o.rn - 1) / 50`,
        [org],
      );
    }
    await step("analyze", "VACUUM ANALYZE");
  } finally {
    await c.end();
  }
  return { url, name, small: orgs.small, large: orgs.large, other: orgs.other, ms };
}

export async function dropDatabase(adminUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  } finally {
    await admin.end();
  }
}

if (process.argv[1]?.endsWith("seed.ts")) {
  const [adminUrl, small = "10000", large = "1000000", other = "1000000"] = process.argv.slice(2);
  if (!adminUrl) {
    console.error("usage: tsx scripts/bench/seed.ts <postgres admin url> [small] [large] [other]");
    process.exit(2);
  }
  const t = performance.now();
  seed(adminUrl, { small: Number(small), large: Number(large), other: Number(other) })
    .then((s) => console.log(JSON.stringify({ ...s, totalMs: Math.round(performance.now() - t) })))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
