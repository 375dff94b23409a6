import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { COORDINATOR_TABLES, REFERENCE_TABLES, TENANT_TABLES } from "@/lib/db/tables";

// What a Citus row-sharded, co-located layout needs (docs/scaling.md "Distribution"), read
// from the catalog of the database the server migrated: every tenant table carries
// organization_id in its primary key, in every unique constraint and unique index, and on
// both sides of every foreign key to another tenant table; every table is in one list of
// lib/db/tables.ts.
type Catalog = {
  tables: { name: string; hasOrg: boolean }[];
  keys: { table: string; name: string; kind: string; columns: string[] }[];
  fks: { table: string; name: string; target: string; pairs: [string, string][] }[];
};

async function readCatalog(url: string): Promise<Catalog> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string; has_org: boolean }>(
      `SELECT c.relname AS name,
         EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'organization_id' AND NOT a.attisdropped) AS has_org
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`,
    );
    // Primary keys, unique constraints and unique indexes (also those of no constraint).
    const keys = await client.query<{ table: string; name: string; kind: string; columns: string[] }>(
      `SELECT t.relname AS table, ic.relname AS name,
         CASE WHEN i.indisprimary THEN 'primary key' ELSE 'unique' END AS kind,
         ARRAY(SELECT a.attname::text FROM unnest(i.indkey::int2[]) AS k(n)
               JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.n) AS columns
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class ic ON ic.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       WHERE n.nspname = 'public' AND i.indisunique`,
    );
    const fks = await client.query<{ table: string; name: string; target: string; pairs: string[] }>(
      `SELECT t.relname AS table, x.conname AS name, r.relname AS target,
         ARRAY(SELECT a.attname::text || '=' || b.attname::text
               FROM unnest(x.conkey, x.confkey) AS k(c, f)
               JOIN pg_attribute a ON a.attrelid = x.conrelid AND a.attnum = k.c
               JOIN pg_attribute b ON b.attrelid = x.confrelid AND b.attnum = k.f) AS pairs
       FROM pg_constraint x JOIN pg_class t ON t.oid = x.conrelid JOIN pg_class r ON r.oid = x.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       WHERE n.nspname = 'public' AND x.contype = 'f'`,
    );
    return {
      tables: tables.rows.map((r) => ({ name: r.name, hasOrg: r.has_org })),
      keys: keys.rows,
      fks: fks.rows.map((r) => ({ ...r, pairs: r.pairs.map((p) => p.split("=") as [string, string]) })),
    };
  } finally {
    await client.end();
  }
}

// The problems found, in words; [] when the schema holds.
function tenantKeyProblems(cat: Catalog): string[] {
  const problems: string[] = [];
  const tenant = new Set<string>(TENANT_TABLES);
  const organizationLess = new Set<string>([...REFERENCE_TABLES, ...COORDINATOR_TABLES]);
  const listed = new Set<string>([...TENANT_TABLES, ...REFERENCE_TABLES, ...COORDINATOR_TABLES]);
  for (const t of cat.tables) {
    if (!listed.has(t.name)) problems.push(`${t.name}: in no list of lib/db/tables.ts`);
    if (t.hasOrg && !tenant.has(t.name) && !organizationLess.has(t.name)) problems.push(`${t.name}: has organization_id but is not a tenant table`);
    if (tenant.has(t.name) && !t.hasOrg) problems.push(`${t.name}: a tenant table without organization_id`);
  }
  const present = new Set(cat.tables.map((t) => t.name));
  for (const name of listed) if (!present.has(name)) problems.push(`${name}: listed in lib/db/tables.ts, no such table`);
  for (const k of cat.keys) {
    if (tenant.has(k.table) && !k.columns.includes("organization_id")) {
      problems.push(`${k.table}: ${k.kind} ${k.name} (${k.columns.join(", ")}) lacks organization_id`);
    }
  }
  if (!cat.keys.some((k) => k.kind === "primary key")) problems.push("no primary key found at all");
  for (const t of TENANT_TABLES) {
    if (present.has(t) && !cat.keys.some((k) => k.table === t && k.kind === "primary key")) problems.push(`${t}: no primary key`);
  }
  for (const f of cat.fks) {
    if (!tenant.has(f.table) || !tenant.has(f.target)) continue;
    if (!f.pairs.some(([from, to]) => from === "organization_id" && to === "organization_id")) {
      problems.push(`${f.table}: foreign key ${f.name} (${f.pairs.map((p) => p.join("→")).join(", ")}) to ${f.target} lacks organization_id on both sides`);
    }
  }
  return problems;
}

describe("tenant keys: organization_id in every key of a tenant table", () => {
  it("holds for the migrated schema, every table listed in lib/db/tables.ts", async () => {
    const cat = await readCatalog(inject("databaseUrl"));
    expect(cat.tables.length).toBeGreaterThan(30);
    expect(tenantKeyProblems(cat)).toEqual([]);
  });

  it("finds what breaks it (a key, a unique index, a foreign key without organization_id; an unlisted table)", () => {
    const cat: Catalog = {
      tables: [
        { name: "obligations", hasOrg: true },
        { name: "payments", hasOrg: true },
        { name: "stray", hasOrg: false },
      ],
      keys: [
        { table: "obligations", name: "obligations_pkey", kind: "primary key", columns: ["id"] },
        { table: "payments", name: "payments_pkey", kind: "primary key", columns: ["organization_id", "id"] },
        { table: "payments", name: "payments_hash_key", kind: "unique", columns: ["hash"] },
      ],
      fks: [
        { table: "payments", name: "payments_obligation_fkey", target: "obligations", pairs: [["obligation_id", "id"]] },
        {
          table: "payments",
          name: "payments_twisted_fkey",
          target: "obligations",
          pairs: [
            ["organization_id", "id"],
            ["obligation_id", "organization_id"],
          ],
        },
      ],
    };
    const problems = tenantKeyProblems(cat);
    expect(problems).toContain("stray: in no list of lib/db/tables.ts");
    expect(problems).toContain("obligations: primary key obligations_pkey (id) lacks organization_id");
    expect(problems).toContain("payments: unique payments_hash_key (hash) lacks organization_id");
    expect(problems.filter((p) => p.includes("foreign key"))).toHaveLength(2);
  });
});
