import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedDb, type EmbeddedDb } from "@/lib/db/embedded";

// Many pg connections over the embedded database's socket at once: every parameterized
// query must run with its own statement and parameters, and transactions must stay whole.
describe("embedded database socket under concurrent connections", () => {
  let dir: string;
  let embedded: EmbeddedDb;
  let pool: pg.Pool;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "fos-socket-"));
    embedded = await startEmbeddedDb(dir);
    pool = new pg.Pool({ connectionString: embedded.url, max: 8 });
    await pool.query("CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)");
    await pool.query("INSERT INTO counters VALUES (1, 0)");
    // Open every pooled connection first, so the queries below really run side by side.
    const clients = await Promise.all(Array.from({ length: 8 }, () => pool.connect()));
    for (const c of clients) c.release();
  }, 120_000); // starting PGlite takes seconds, many more on a busy machine
  afterAll(async () => {
    await pool?.end();
    await embedded?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps extended-protocol batches of different connections apart", async () => {
    const jobs = Array.from({ length: 300 }, async (_, i) => {
      if (i % 3 === 0) {
        const r = await pool.query("SELECT $1::int + $2::int AS v, $3::text AS t", [i, 1, `s${i}`]);
        expect(r.rows[0]).toEqual({ v: i + 1, t: `s${i}` });
      } else if (i % 3 === 1) {
        const r = await pool.query("SELECT $1::text AS t", [`only-${i}`]);
        expect(r.rows[0]).toEqual({ t: `only-${i}` });
      } else {
        const r = await pool.query("SELECT upper($1::text) AS a, $2::int * 2 AS b, $3::int AS c, $4::text AS d", [`x${i}`, i, -i, "d"]);
        expect(r.rows[0]).toEqual({ a: `X${i}`, b: i * 2, c: -i, d: "d" });
      }
    });
    await Promise.all(jobs);
  });

  it("keeps transactions whole while other connections query", async () => {
    const increments = Array.from({ length: 40 }, async () => {
      const c = await pool.connect();
      try {
        await c.query("BEGIN");
        const { rows } = await c.query("SELECT n FROM counters WHERE id = $1 FOR UPDATE", [1]);
        await c.query("UPDATE counters SET n = $1 WHERE id = $2", [rows[0].n + 1, 1]);
        await c.query("COMMIT");
      } finally {
        c.release();
      }
    });
    const readers = Array.from({ length: 40 }, (_, i) => pool.query("SELECT $1::int AS i", [i]).then((r) => expect(r.rows[0].i).toBe(i)));
    await Promise.all([...increments, ...readers]);
    expect((await pool.query("SELECT n FROM counters WHERE id = 1")).rows[0].n).toBe(40);
  });

  it("survives a failing statement in one connection without stalling the others", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => (i % 5 === 0 ? pool.query("SELECT $1::int / 0", [i]) : pool.query("SELECT $1::int AS i", [i]))),
    );
    results.forEach((r, i) => {
      if (i % 5 === 0) expect(r.status).toBe("rejected");
      else expect(r.status === "fulfilled" && r.value.rows[0].i).toBe(i);
    });
    expect((await pool.query("SELECT 1 AS one")).rows[0].one).toBe(1);
  });
});
