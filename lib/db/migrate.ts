import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { REFERENCE_TABLES, TENANT_TABLES } from "@/lib/db/tables";

// The project's own migration runner (`prisma migrate` needs a schema engine that cannot
// be downloaded here). Files prisma/migrations/<NNNN_name>/migration.sql are applied in
// order, one transaction each, recorded in schema_migrations. Each transaction first takes
// a transaction-scoped advisory lock and checks the record again, so several instances
// starting at once do not race, and nothing outlives a transaction: the runner works
// through a transaction-mode pooler too (callers still prefer DIRECT_DATABASE_URL,
// `migrationUrl`).
const LOCK_ID = 727_274_001;

// The URL migrations and other session work use: DIRECT_DATABASE_URL when set (past the pooler).
export function migrationUrl(): string | undefined {
  return process.env.DIRECT_DATABASE_URL || process.env.DATABASE_URL;
}

// The tables the runner distributes on Citus (lib/db/tables.ts; an earlier version's lists in
// test/migrate-upgrade.test.ts).
export type Layout = { tenant: readonly string[]; reference: readonly string[] };

export async function migrate(
  databaseUrl: string,
  migrationsDir = path.resolve("prisma/migrations"),
  layout: Layout = { tenant: TENANT_TABLES, reference: REFERENCE_TABLES },
): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  const locked = async <T>(fn: () => Promise<T>): Promise<T> => {
    await client.query("BEGIN");
    try {
      await client.query("SELECT pg_advisory_xact_lock($1)", [LOCK_ID]);
      const result = await fn();
      await client.query("COMMIT");
      return result;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    }
  };
  try {
    const names = (await readdir(migrationsDir, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && /^\d{4}_/.test(d.name))
      .map((d) => d.name)
      .sort();
    const done = await locked(async () => {
      await client.query("CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
      return new Set((await client.query<{ name: string }>("SELECT name FROM schema_migrations")).rows.map((r) => r.name));
    });
    for (const name of names) {
      if (done.has(name)) continue;
      const sql = await readFile(path.join(migrationsDir, name, "migration.sql"), "utf8");
      try {
        const ran = await locked(async () => {
          // another instance may have applied it while this one waited for the lock
          if ((await client.query("SELECT 1 FROM schema_migrations WHERE name = $1", [name])).rowCount) return false;
          await client.query(sql);
          await client.query("INSERT INTO schema_migrations (name) VALUES ($1)", [name]);
          return true;
        });
        if (ran) applied.push(name);
      } catch (err) {
        throw new Error(`migration ${name} failed: ${(err as Error).message}`);
      }
    }
    await locked(() => distributeOnCitus(client, layout));
  } finally {
    await client.end();
  }
  return applied;
}

// On a Citus coordinator (the `citus` extension in the target database), after the
// migrations: the organization-less tables of REFERENCE_TABLES become reference tables and
// every tenant table is distributed by organization_id, co-located with the first of
// TENANT_TABLES (docs/scaling.md "Distribution"). Idempotent: tables Citus already knows are
// skipped (a cluster distributed by an earlier version gets only its new tenant tables).
// Citus refuses a foreign key from a table not yet distributed to one that is, so the
// foreign keys between tenant tables that touch a table to distribute are dropped for the
// moment and added again once all are distributed (in the same transaction). COORDINATOR_TABLES stay plain tables on the
// coordinator. Nothing happens on plain PostgreSQL or PGlite. The same-row trigger of
// obligations.projection_rev (migrations 0015/0016) runs on the shards: Citus wants that
// allowed, for this transaction and for the database's later sessions.
async function distributeOnCitus(client: pg.Client, layout: Layout): Promise<void> {
  const citus = await client.query("SELECT 1 FROM pg_extension WHERE extname = 'citus'");
  if (!citus.rowCount) return;
  await client.query("SET LOCAL citus.enable_unsafe_triggers = on");
  await client.query("SET LOCAL citus.multi_shard_modify_mode = 'sequential'");
  const db = (await client.query<{ name: string }>("SELECT current_database() AS name")).rows[0].name;
  await client.query(`ALTER DATABASE ${client.escapeIdentifier(db)} SET citus.enable_unsafe_triggers = on`);
  const known = new Set((await client.query<{ name: string }>("SELECT logicalrelid::regclass::text AS name FROM pg_dist_partition")).rows.map((r) => r.name));
  const pending = layout.tenant.filter((t) => !known.has(t));
  for (const table of layout.reference) {
    if (!known.has(table)) await client.query("SELECT create_reference_table($1)", [table]);
  }
  if (!pending.length) return;
  const tenant = new Set<string>(layout.tenant);
  const moving = new Set<string>(pending);
  const fks = (
    await client.query<{ child: string; parent: string; name: string; def: string }>(
      `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent, c.conname AS name, pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
       WHERE c.contype = 'f' AND n.nspname = 'public'`,
    )
  ).rows.filter((f) => tenant.has(f.child) && tenant.has(f.parent) && (moving.has(f.child) || moving.has(f.parent)));
  const q = (name: string) => client.escapeIdentifier(name);
  for (const f of fks) await client.query(`ALTER TABLE ${q(f.child)} DROP CONSTRAINT ${q(f.name)}`);
  const [anchor] = layout.tenant;
  for (const table of pending) {
    if (table === anchor) await client.query("SELECT create_distributed_table($1, 'organization_id')", [table]);
    else await client.query("SELECT create_distributed_table($1, 'organization_id', colocate_with => $2)", [table, anchor]);
  }
  for (const f of fks) await client.query(`ALTER TABLE ${q(f.child)} ADD CONSTRAINT ${q(f.name)} ${f.def}`);
}
