import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";

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

export async function migrate(databaseUrl: string, migrationsDir = path.resolve("prisma/migrations")): Promise<string[]> {
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
  } finally {
    await client.end();
  }
  return applied;
}
