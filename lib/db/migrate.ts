import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

// The project's own migration runner (`prisma migrate` needs a schema engine that cannot
// be downloaded here). Files prisma/migrations/<NNNN_name>/migration.sql are applied in
// order, one transaction each, recorded in schema_migrations, under an advisory lock so
// several instances starting at once do not race.
const LOCK_ID = 727_274_001;

export async function migrate(databaseUrl: string, migrationsDir = path.resolve("prisma/migrations")): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query("SELECT pg_advisory_lock($1)", [LOCK_ID]);
    await client.query("CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
    const done = new Set((await client.query<{ name: string }>("SELECT name FROM schema_migrations")).rows.map((r) => r.name));
    const names = (await readdir(migrationsDir, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && /^\d{4}_/.test(d.name))
      .map((d) => d.name)
      .sort();
    for (const name of names) {
      if (done.has(name)) continue;
      const sql = await readFile(path.join(migrationsDir, name, "migration.sql"), "utf8");
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query("INSERT INTO schema_migrations (name) VALUES ($1)", [name]);
        await client.query("COMMIT");
        applied.push(name);
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${name} failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [LOCK_ID]).catch(() => undefined);
    await client.end();
  }
  return applied;
}
