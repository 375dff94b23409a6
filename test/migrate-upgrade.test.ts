import { randomUUID } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { REFERENCE_TABLES, TENANT_TABLES } from "@/lib/db/tables";
import { createTestDatabase, dropTestDatabase } from "./support/server";

// The upgrade path (docs/scaling.md "Upgrading a cluster distributed by an earlier version"): a database migrated by
// an earlier version, up to 0028 (and on a Citus coordinator distributed by that version's
// runner, with idempotency_records still a coordinator table), takes today's migrations and
// distribution: 0029-0031 on distributed tables, then idempotency_records distributed with its
// rows. A database of its own on TEST_DATABASE_URL's server (plain PostgreSQL or Citus); not on
// PGlite (one database per server).
const adminUrl = process.env.TEST_DATABASE_URL;
const MIGRATIONS = path.resolve("prisma/migrations");
const NIL = "00000000-0000-0000-0000-000000000000";

// lib/db/tables.ts as it was while 0028 was the last migration.
const LAYOUT_0028 = { tenant: TENANT_TABLES.filter((t) => t !== "idempotency_records"), reference: REFERENCE_TABLES };

describe.runIf(adminUrl)("upgrading a database migrated up to 0028", () => {
  it("applies 0029-0031 and (on Citus) distributes idempotency_records co-located, keeping its rows", async () => {
    const url = await createTestDatabase(adminUrl!);
    const upTo0028 = mkdtempSync(path.join(os.tmpdir(), "fos-migrations-0028-"));
    const c = new pg.Client({ connectionString: url });
    try {
      for (const name of readdirSync(MIGRATIONS)) {
        if (/^\d{4}_/.test(name) && Number(name.slice(0, 4)) <= 28) cpSync(path.join(MIGRATIONS, name), path.join(upTo0028, name), { recursive: true });
      }
      expect((await migrate(url, upTo0028, LAYOUT_0028)).at(-1)).toBe("0028_tenant_keys");
      await c.connect();
      const citus = (await c.query("SELECT 1 FROM pg_extension WHERE extname = 'citus'")).rowCount === 1;
      const distributed = async () =>
        new Set(
          (await c.query<{ name: string }>("SELECT logicalrelid::regclass::text AS name FROM pg_dist_partition WHERE partmethod = 'h'")).rows.map(
            (r) => r.name,
          ),
        );
      if (citus) {
        const before = await distributed();
        expect(before.size).toBe(LAYOUT_0028.tenant.length);
        expect(before.has("idempotency_records")).toBe(false);
      }
      // Rows of that version: an organization and two Idempotency-Key records (its API key's
      // scope; a payment link's of no request this database knows).
      const org = randomUUID();
      await c.query("INSERT INTO organizations (id, name) VALUES ($1, 'Upgrade Org')", [org]);
      await c.query(
        `INSERT INTO idempotency_records (scope, key, method, path, fingerprint, state, response_status, response_body, locked_until, completed_at)
         VALUES ($1, 'k1', 'POST', '/api/v1/obligations', 'h1:a', 'completed', 201, '{}', now(), now()),
                ($2, 'k2', 'POST', '/api/v1/recipient/contexts/x/session', 'h1:b', 'completed', 200, '{}', now(), now())`,
        [`org:${org}`, `req:${randomUUID()}`],
      );
      const foreignKeys = async () => (await c.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_constraint WHERE contype = 'f'")).rows[0].n;
      const fksBefore = await foreignKeys();

      expect(await migrate(url)).toEqual(["0029_routing", "0030_obligation_writes", "0031_idempotency_tenant"]);

      const rows = await c.query<{ organization_id: string; key: string }>("SELECT organization_id, key FROM idempotency_records ORDER BY key");
      expect(rows.rows).toEqual([
        { organization_id: org, key: "k1" },
        { organization_id: NIL, key: "k2" },
      ]);
      expect(await foreignKeys()).toBe(fksBefore);
      if (citus) {
        expect([...(await distributed())].sort()).toEqual([...TENANT_TABLES].sort());
        const placed = await c.query<{ column: string; colocated: boolean }>(
          `SELECT column_to_column_name(p.logicalrelid, p.partkey) AS column,
                  p.colocationid = (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = 'obligations'::regclass) AS colocated
             FROM pg_dist_partition p WHERE p.logicalrelid = 'idempotency_records'::regclass`,
        );
        expect(placed.rows).toEqual([{ column: "organization_id", colocated: true }]);
        // the rows moved to the shards: the organization's record is read there
        const routed = await c.query("SELECT key FROM idempotency_records WHERE organization_id = $1", [org]);
        expect(routed.rows).toEqual([{ key: "k1" }]);
      }
      // Every start runs the runner again: nothing left to do.
      expect(await migrate(url)).toEqual([]);
    } finally {
      await c.end().catch(() => undefined);
      rmSync(upTo0028, { recursive: true, force: true });
      await dropTestDatabase(adminUrl as string, url).catch(() => undefined);
    }
  }, 180_000); // a fresh cluster database distributed twice: 19 s on the shared cluster
});
