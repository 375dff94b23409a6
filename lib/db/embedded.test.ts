import { describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import pg from "pg";
import { keepProtocolBatchesTogether } from "@/lib/db/embedded";

// Several connections to one embedded database: parameterized queries (extended protocol)
// interleaved with other connections' transactions must neither fail nor get another
// query's statement or parameters.
describe("embedded database socket", () => {
  it("keeps each connection's Parse/Bind/Execute together under concurrency", async () => {
    const db = await PGlite.create();
    const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 50 });
    keepProtocolBatchesTogether(server);
    await server.start();
    const port = Number(new URL(`pg://${server.getServerConn()}`).port);
    const pool = new pg.Pool({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`, max: 10 });
    const errors: string[] = [];
    pool.on("error", (e) => errors.push(e.message));
    let wrong = 0;
    try {
      await db.exec("CREATE TABLE t (n int)");
      await Promise.all(
        Array.from({ length: 600 }, async (_, i) => {
          try {
            if (i % 3 === 0) {
              const c = await pool.connect();
              try {
                await c.query("BEGIN");
                await c.query("INSERT INTO t (n) VALUES ($1)", [i]);
                await c.query("COMMIT");
              } finally {
                c.release();
              }
              return;
            }
            const sql = i % 2 ? "SELECT $1::int AS a" : "SELECT $1::int * 1000 AS a";
            const r = await pool.query(sql, [i]);
            if (r.rows[0].a !== (i % 2 ? i : i * 1000)) wrong++;
          } catch (e) {
            errors.push((e as Error).message);
          }
        }),
      );
      expect(errors).toEqual([]);
      expect(wrong).toBe(0);
      expect((await pool.query("SELECT count(*)::int AS c FROM t")).rows[0].c).toBe(200);
    } finally {
      await pool.end();
      await server.stop();
      await db.close();
    }
  });
});
