import { randomUUID } from "node:crypto";
import { sql as raw } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, sql, transaction } from "@/lib/db/client";
import { later, query, statement } from "@/lib/db/query";

// The typed query builder (lib/db/query.ts) on the suite's real database (PGlite or
// PostgreSQL): its statements join the ambient transaction of `transaction()` and roll back
// with it; a held-back write (`later`) leaves with COMMIT. Needs the integration setup's database.
describe.skipIf(!process.env.DATABASE_URL)("lib/db/query", () => {
  let observer: pg.Client; // another session, to see what is committed
  let embedded = false;
  const orgIds: string[] = [];
  const newOrgId = () => {
    const id = randomUUID();
    orgIds.push(id);
    return id;
  };
  const committed = async (id: string) =>
    (await observer.query("SELECT name FROM organizations WHERE id = $1::uuid", [id])).rows[0]?.name as string | undefined;

  beforeAll(async () => {
    observer = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await observer.connect();
    embedded = /pglite|emscripten/i.test((await observer.query("SELECT version() AS v")).rows[0].v);
  });
  afterAll(async () => {
    await observer.query("DELETE FROM organizations WHERE id = ANY($1::uuid[])", [orgIds]);
    await observer.end();
  });

  it("runs in the open transaction: sees its rows, hides them from others, commits with it", async () => {
    const id = newOrgId();
    await transaction(async (tx) => {
      await query(tx).insertInto("organizations").values({ id, name: "typed probe" }).execute();
      // The same transaction, whichever way it is read...
      expect(await sql(tx, "SELECT name FROM organizations WHERE id = $1::uuid", [id])).toEqual([{ name: "typed probe" }]);
      const [viaPool] = await query(db()).selectFrom("organizations").select("name").where("id", "=", id).execute();
      expect(viaPool?.name).toBe("typed probe");
      // ...and the same transaction id as sql() (one connection).
      const [a] = await raw<{ t: string }>`SELECT txid_current()::text AS t`.execute(query(tx)).then((r) => r.rows);
      const [b] = await sql<{ t: string }>(tx, "SELECT txid_current()::text AS t");
      expect(a.t).toBe(b.t);
      if (!embedded) expect(await committed(id)).toBeUndefined();
    });
    expect(await committed(id)).toBe("typed probe");
  });

  it("rolls back with the transaction", async () => {
    const id = newOrgId();
    await expect(
      transaction(async (tx) => {
        await query(tx).insertInto("organizations").values({ id, name: "typed probe" }).execute();
        const r = await query(tx).updateTable("organizations").set({ name: "renamed" }).where("id", "=", id).executeTakeFirst();
        expect(r.numUpdatedRows).toBe(1n);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(await committed(id)).toBeUndefined();
  });

  it("sends a held-back write with COMMIT, and drops it on rollback", async () => {
    const kept = newOrgId();
    const dropped = newOrgId();
    await transaction(async (tx) => {
      await later(tx, query(tx).insertInto("organizations").values({ id: kept, name: "held back" }));
    });
    expect(await committed(kept)).toBe("held back");
    await expect(
      transaction(async (tx) => {
        await later(tx, query(tx).insertInto("organizations").values({ id: dropped, name: "held back" }));
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(await committed(dropped)).toBeUndefined();
  });

  it("fails the transaction with a held-back write's error", async () => {
    const id = newOrgId();
    await expect(
      transaction(async (tx) => {
        await query(tx).insertInto("organizations").values({ id, name: "first" }).execute();
        await later(tx, query(tx).insertInto("organizations").values({ id, name: "duplicate" }), () => new Error("taken"));
      }),
    ).rejects.toThrow("taken");
    expect(await committed(id)).toBeUndefined();
  });

  it("reads int8 as bigint and refuses a Kysely transaction", async () => {
    const [r] = (await raw<{ n: bigint }>`SELECT 9007199254740993::int8 AS n`.execute(query(db()))).rows;
    expect(r.n).toBe(9007199254740993n);
    await expect(
      query(db())
        .transaction()
        .execute(async () => undefined),
    ).rejects.toThrow(/transaction\(\) of lib\/db\/client\.ts/);
  });

  it("builds a statement once and binds each call's values in order, constants kept", async () => {
    let builds = 0;
    const insert = statement((q, p: { id: string; name: string }) => {
      builds++;
      return q.insertInto("organizations").values({ id: p.id, name: p.name });
    });
    const rename = statement((q, p: { id: string; name: string }) =>
      q.updateTable("organizations").set({ name: p.name }).where("id", "=", p.id).where("name", "<>", "never renamed"),
    );
    const byIds = statement((q, p: { ids: string[] }) =>
      q.selectFrom("organizations").select(["id", "name"]).where(raw<boolean>`id = any(${p.ids}::uuid[])`).orderBy("name"),
    );
    const [a, b] = [newOrgId(), newOrgId()];
    await transaction(async (tx) => {
      await insert.later(tx, { id: a, name: "first" });
      expect(await insert.count(tx, { id: b, name: "second" })).toBe(1);
      expect(await rename.count(tx, { name: "renamed", id: a })).toBe(1);
    });
    expect(builds).toBe(1);
    expect(rename.text()).toBe('update "organizations" set "name" = $1 where "id" = $2 and "name" <> $3');
    const rows = await byIds.rows(db(), { ids: [a, b] });
    expect(rows).toEqual([
      { id: a, name: "renamed" },
      { id: b, name: "second" },
    ]);
  });
});
