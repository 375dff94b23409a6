import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, sql, sqlCount, transaction } from "@/lib/db";

// `transaction()` (lib/db.ts) on the suite's real database: BEGIN/COMMIT on one pooled
// connection, with every statement of its async context on that connection — `sql()`,
// Prisma's model and raw queries, and a nested write Prisma wraps in a transaction of its own.
describe("lib/db transaction()", () => {
  let observer: pg.Client; // another session, to see what is committed
  // The embedded database serves one session: another connection waits while a transaction
  // is open, so what an open transaction hides from others is checked on PostgreSQL only.
  let embedded = false;
  const orgIds: string[] = [];
  const userIds: string[] = [];

  beforeAll(async () => {
    observer = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await observer.connect();
    embedded = /pglite|emscripten/i.test((await observer.query("SELECT version() AS v")).rows[0].v);
  });
  afterAll(async () => {
    await observer.query("DELETE FROM memberships WHERE user_id = ANY($1::uuid[])", [userIds]);
    await observer.query("DELETE FROM users WHERE id = ANY($1::uuid[])", [userIds]);
    await observer.query("DELETE FROM organizations WHERE id = ANY($1::uuid[])", [orgIds]);
    await observer.end();
  });

  const newOrgId = () => {
    const id = randomUUID();
    orgIds.push(id);
    return id;
  };
  const insertOrg = (q: Parameters<typeof sql>[0], id: string) => sqlCount(q, "INSERT INTO organizations (id, name) VALUES ($1::uuid, 'tx probe')", [id]);
  const committed = async (id: string) => (await observer.query("SELECT 1 FROM organizations WHERE id = $1::uuid", [id])).rowCount === 1;

  it("commits what sql() and Prisma's queries wrote, and nothing is visible before the commit", async () => {
    const a = newOrgId();
    const b = newOrgId();
    await transaction(async (tx) => {
      expect(tx).not.toBe(db());
      await insertOrg(tx, a);
      await tx.$executeRaw`INSERT INTO organizations (id, name) VALUES (${b}::uuid, 'tx probe')`;
      // Prisma's model query and the plain handle see the transaction's own rows...
      expect(await tx.organization.count({ where: { id: { in: [a, b] } } })).toBe(2);
      expect(await db().organization.count({ where: { id: { in: [a, b] } } })).toBe(2);
      expect((await sql(db(), "SELECT count(*)::int AS n FROM organizations WHERE id = ANY($1::uuid[])", [[a, b]]))[0]).toEqual({ n: 2 });
      // ...another session does not.
      if (!embedded) {
        expect(await committed(a)).toBe(false);
        expect(await committed(b)).toBe(false);
      }
    });
    expect(await committed(a)).toBe(true);
    expect(await committed(b)).toBe(true);
  });

  it("rolls everything back when the function throws, and the error is the function's", async () => {
    const a = newOrgId();
    const boom = new Error("boom");
    await expect(
      transaction(async (tx) => {
        await insertOrg(tx, a);
        await tx.organization.update({ where: { id: a }, data: { name: "renamed" } });
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(await committed(a)).toBe(false);
  });

  it("runs a nested write Prisma wraps in its own transaction inside the open one", async () => {
    const org = newOrgId();
    const user = randomUUID();
    userIds.push(user);
    const create = (tx: Parameters<typeof sql>[0]) =>
      tx.user.create({
        data: {
          id: user,
          email: `${user}@tx.example`,
          passwordHash: "x",
          memberships: { create: { id: randomUUID(), organizationId: org, role: "owner" } },
        },
      });
    // The membership refers to an organization only this transaction can see: on another
    // connection the nested write would fail its foreign key or wait for this transaction.
    await expect(
      transaction(async (tx) => {
        await insertOrg(tx, org);
        await create(tx);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect((await observer.query("SELECT 1 FROM users WHERE id = $1::uuid", [user])).rowCount).toBe(0);
    await transaction(async (tx) => {
      await insertOrg(tx, org);
      await create(tx);
    });
    expect((await observer.query("SELECT 1 FROM memberships WHERE user_id = $1::uuid AND organization_id = $2::uuid", [user, org])).rowCount).toBe(1);
  });

  it("keeps concurrent transactions apart, and a transaction inside one is its own", async () => {
    const ids = Array.from({ length: 6 }, newOrgId);
    const seen: string[][] = [];
    const results = await Promise.allSettled(
      ids.map((id, i) =>
        transaction(async (tx) => {
          await insertOrg(tx, id);
          await new Promise((r) => setTimeout(r, 5));
          // Every kind of statement of this context runs in this transaction (one id)...
          const current = "SELECT txid_current()::text AS t";
          const [a] = await sql<{ t: string }>(tx, current);
          const [b] = await tx.$queryRawUnsafe<{ t: string }[]>(current);
          const [c] = await sql<{ t: string }>(db(), current);
          seen[i] = [a.t, b.t, c.t];
          expect(await tx.organization.findUnique({ where: { id } })).not.toBeNull();
          if (i % 2 === 1) throw new Error(`odd ${i}`);
        }),
      ),
    );
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : r.status))).toEqual([
      "fulfilled",
      "Error: odd 1",
      "fulfilled",
      "Error: odd 3",
      "fulfilled",
      "Error: odd 5",
    ]);
    for (const ts of seen) expect(new Set(ts).size).toBe(1);
    // ...and the six are six transactions.
    expect(new Set(seen.map((ts) => ts[0])).size).toBe(6);
    expect(await Promise.all(ids.map(committed))).toEqual([true, false, true, false, true, false]);
    if (embedded) return;

    const outer = newOrgId();
    const inner = newOrgId();
    await expect(
      transaction(async (tx) => {
        await insertOrg(tx, outer);
        await transaction((tx2) => insertOrg(tx2, inner));
        // Back in the outer transaction: the inner one committed on its own connection.
        expect(await committed(inner)).toBe(true);
        expect(await tx.organization.count({ where: { id: outer } })).toBe(1);
        throw new Error("outer fails");
      }),
    ).rejects.toThrow("outer fails");
    expect(await committed(outer)).toBe(false);
    expect(await committed(inner)).toBe(true);
  });

  it("refuses the handle outside its transaction", async () => {
    let kept: Parameters<typeof sql>[0] | undefined;
    await transaction(async (tx) => {
      kept = tx;
    });
    await expect(sql(kept as never, "SELECT 1")).rejects.toThrow(/Transaction already closed/);
  });

  it("rolls back a transaction that runs past its time limit; its later statements fail", async () => {
    const a = newOrgId();
    const b = newOrgId();
    let late: Promise<unknown> | undefined;
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    await expect(
      transaction(async (tx) => {
        await insertOrg(tx, a);
        await held; // still running when the limit passes
        late = insertOrg(tx, b);
        await late;
      }, 200),
    ).rejects.toThrow(/time limit/);
    // The call gave up at the limit, while the function was still waiting.
    expect(late).toBeUndefined();
    release();
    await new Promise((r) => setTimeout(r, 50));
    await expect(late).rejects.toThrow(/Transaction already closed/);
    expect(await committed(a)).toBe(false);
    expect(await committed(b)).toBe(false);
    // The connection went back to the pool in a usable state.
    for (let i = 0; i < 12; i++) await transaction(async (tx) => sql(tx, "SELECT 1"));
  });
});
