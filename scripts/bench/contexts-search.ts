// Benchmark of GET /business-contexts search (the real query of lib/contexts/list-business-contexts.ts)
// on PostgreSQL, with and without the trigram indexes of migration 0004.
//
//   npx tsx scripts/bench/contexts-search.ts postgres://postgres@127.0.0.1:5433/postgres [rows]
//
// Creates a scratch database on that server, migrates it, inserts `rows` contexts (default
// 200000) in one large organization plus 20 small ones, runs each search repeatedly and
// prints the median/p95 latency and the plan; then drops the trigram indexes and repeats.
// The scratch database is dropped at the end.
import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { migrate } from "@/lib/db/migrate";
import { listBusinessContexts } from "@/lib/contexts/list-business-contexts";
import { ZListBusinessContextsQuery } from "@/lib/schemas/contexts";

const adminUrl = process.argv[2];
const rows = Number(process.argv[3] ?? 200_000);
if (!adminUrl) {
  console.error("usage: tsx scripts/bench/contexts-search.ts <postgres admin url> [rows]");
  process.exit(2);
}

const WORDS = ["Acme", "Harbour", "Bridge", "Northwind", "Contoso", "Fabrikam", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Tyrell"];
const TYPES = ["company", "project", "order", "invoice", "external_object"];
const KIND: Record<string, string> = { company: "company", project: "group", order: "reference", invoice: "reference", external_object: "reference" };

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
    // 70% of the rows in the big organization, the rest spread over the small ones.
    await client.query(
      `INSERT INTO business_contexts (id, organization_id, type, kind, name, reference, type_label, created_at)
       SELECT gen_random_uuid(),
              CASE WHEN g % 10 < 7 THEN $1::uuid ELSE ($2::uuid[])[1 + g % 20] END,
              ($3::text[])[1 + g % 5], ($4::text[])[1 + g % 5],
              ($5::text[])[1 + g % 12] || ' ' || ($5::text[])[1 + (g / 12) % 12] || ' ' || g,
              'REF-' || lpad(g::text, 8, '0'), 'Label', now() - make_interval(secs => g)
       FROM generate_series(1, $6::int) g`,
      [big, orgs.slice(1), TYPES, TYPES.map((t) => KIND[t]), WORDS, rows],
    );
    await client.query("ANALYZE business_contexts");
    console.log(`inserted ${rows} contexts in ${Math.round(performance.now() - t0)} ms`);

    const searches = ["harbour bridge", "REF-0012345", "contoso", "zz-no-match", "ac"];
    const run = async (label: string) => {
      console.log(`\n## ${label}`);
      for (const search of searches) {
        const q = ZListBusinessContextsQuery.parse({ search, limit: "50" });
        const times: number[] = [];
        let found = 0;
        for (let i = 0; i < 15; i++) {
          const s = performance.now();
          found = (await listBusinessContexts(prisma, { organizationId: big, query: q })).items.length;
          times.push(performance.now() - s);
        }
        times.sort((a, b) => a - b);
        const plan = (
          await client.query(
            `EXPLAIN SELECT id FROM business_contexts WHERE organization_id = $1::uuid AND (name ILIKE $2 OR reference ILIKE $2) ORDER BY created_at DESC, id DESC LIMIT 50`,
            [big, `%${search}%`],
          )
        ).rows
          .map((r) => r["QUERY PLAN"] as string)
          .filter((l) => /Scan|Bitmap/.test(l))
          .map((l) => l.trim().replace(/\s+\(cost.*$/, ""))
          .join(" | ");
        console.log(
          `search=${JSON.stringify(search).padEnd(16)} items=${String(found).padStart(2)}  median=${times[7].toFixed(1)} ms  p95=${times[14].toFixed(1)} ms  plan: ${plan}`,
        );
      }
    };
    await run("with trigram indexes (migration 0004)");
    await client.query("DROP INDEX IF EXISTS business_contexts_name_trgm_idx; DROP INDEX IF EXISTS business_contexts_reference_trgm_idx");
    await run("without trigram indexes");
    const filtered = ZListBusinessContextsQuery.parse({ context_kind: "group", limit: "50", offset: "1000" });
    const s = performance.now();
    await listBusinessContexts(prisma, { organizationId: big, query: filtered });
    console.log(`\ncontext_kind=group offset=1000: ${(performance.now() - s).toFixed(1)} ms`);
  } finally {
    await prisma.$disconnect();
    await client.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.end();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
