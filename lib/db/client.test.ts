import { randomUUID } from "node:crypto";
import net from "node:net";
import v8 from "node:v8";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, sql, sqlCount, sqlLater, transaction } from "@/lib/db/client";
import { KeyTakenMeanwhile, NO_ORGANIZATION, claimForApiKeyInTx, claimInTx, claimed, lookup, storeInTx } from "@/lib/idempotency";

// `transaction()` (lib/db/client.ts) on the suite's real database: BEGIN/COMMIT on one pooled
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
    observer = new pg.Client({ connectionString: process.env.DATABASE_URL, pipeline: true } as pg.ClientConfig);
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
  // sqlLater: a write held back until the transaction's next statement or its COMMIT.
  const laterOrg = (q: Parameters<typeof sql>[0], id: string, failure?: (err: unknown) => unknown) =>
    sqlLater(q, "INSERT INTO organizations (id, name) VALUES ($1::uuid, 'tx probe')", [id], failure);

  // Socket writes of this process while `fn` runs (a corked stream's chunks are one write).
  async function socketWrites(fn: () => Promise<unknown>): Promise<number> {
    const proto = net.Socket.prototype as unknown as Record<"_write" | "_writev", (...a: unknown[]) => unknown>;
    const original = { _write: proto._write, _writev: proto._writev };
    let n = 0;
    for (const k of ["_write", "_writev"] as const) {
      proto[k] = function (this: unknown, ...a: unknown[]) {
        n++;
        return original[k].apply(this, a);
      };
    }
    try {
      await fn();
    } finally {
      Object.assign(proto, original);
    }
    return n;
  }

  it("sends a held-back write with the next statement or with COMMIT, and commits it with the transaction", async () => {
    const a = newOrgId();
    const b = newOrgId();
    const c = newOrgId();
    let commitWrites = -1;
    await transaction(async (tx) => {
      await laterOrg(tx, a);
      // The next statement finds it written (it went out first, in the same write).
      expect(await sql(tx, "SELECT count(*)::int AS n FROM organizations WHERE id = $1::uuid", [a])).toEqual([{ n: 1 }]);
      await laterOrg(tx, b);
      await laterOrg(tx, c);
    }).then(() => undefined);
    expect(await Promise.all([a, b, c].map(committed))).toEqual([true, true, true]);

    // BEGIN, two held-back writes and COMMIT: one socket write for the whole transaction.
    const d = newOrgId();
    const e = newOrgId();
    commitWrites = await socketWrites(() =>
      transaction(async (tx) => {
        await laterOrg(tx, d);
        await laterOrg(tx, e);
      }),
    );
    expect(commitWrites).toBe(1);
    expect(await Promise.all([d, e].map(committed))).toEqual([true, true]);

    // Outside a transaction it runs at once.
    const f = newOrgId();
    await laterOrg(db(), f);
    expect(await committed(f)).toBe(true);
  });

  it("sends statements issued together in one write, each answered on its own", async () => {
    const a = newOrgId();
    let answers: unknown[] = [];
    // BEGIN and two statements issued before waiting for either: one write; then COMMIT.
    const writes = await socketWrites(() =>
      transaction(async (tx) => {
        const first = sql(tx, "SELECT 1 AS one");
        const second = insertOrg(tx, a);
        answers = await Promise.all([first, second]);
      }),
    );
    expect(writes).toBe(2);
    expect(answers).toEqual([[{ one: 1 }], 1]);
    expect(await committed(a)).toBe(true);

    // A failing statement of the pair fails alone (its error, not the other's), and the
    // transaction rolls back with it.
    const b = newOrgId();
    await expect(
      transaction(async (tx) => {
        const bad = sql(tx, "SELECT 1/0 AS x");
        const after = insertOrg(tx, b);
        after.catch(() => undefined);
        await bad;
      }),
    ).rejects.toMatchObject({ code: "22012" });
    expect(await committed(b)).toBe(false);
  });

  // node-postgres's promise form assigns a fresh arrow function to the query's `callback`
  // property, and V8 allocates a function literal assigned to a property in the old
  // generation at once. Lingering there, each such callback kept the statement, its
  // parameters and the request awaiting it alive through every scavenge until the next
  // mark-compact (docs/benchmarks.md, step 17). The transaction's statements (BEGIN, its own,
  // the held-back write, COMMIT) must each reach the driver with a callback still in the
  // young generation. V8's own test for that (%InYoungGeneration) needs natives syntax, on
  // only while the probe function is compiled.
  it("hands node-postgres each statement of a transaction with a young callback, none pretenured in the old generation", async () => {
    v8.setFlagsFromString("--allow-natives-syntax");
    const inYoungGeneration = new Function("o", "return %InYoungGeneration(o)") as (o: unknown) => boolean;
    v8.setFlagsFromString("--no-allow-natives-syntax");
    expect(inYoungGeneration({})).toBe(true);
    const submit = pg.Query.prototype.submit;
    const young: { text: string; young: boolean }[] = [];
    pg.Query.prototype.submit = function (this: pg.Query & { text?: string; callback?: unknown }, ...args: unknown[]) {
      young.push({ text: String(this.text).split(" ")[0], young: typeof this.callback === "function" && inYoungGeneration(this.callback) });
      return (submit as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof submit;
    const a = newOrgId();
    try {
      await transaction(async (tx) => {
        await sqlLater(tx, "INSERT INTO organizations (id, name) VALUES ($1::uuid, 'tx probe')", [a]);
        await sql(tx, "SELECT length($1::text) AS n", ["x".repeat(50_000)]);
      });
    } finally {
      pg.Query.prototype.submit = submit;
    }
    expect(young.map((q) => q.text)).toEqual(["BEGIN", "INSERT", "SELECT", "COMMIT"]);
    expect(young.filter((q) => !q.young)).toEqual([]);
    expect(await committed(a)).toBe(true);
  });

  it("gives a failed statement's error the stack of the code that awaited it, not the socket's read", async () => {
    const err = await transaction(async (tx) => {
      await sql(tx, "SELECT 1/0 AS x");
    }).catch((e: Error & { code?: string }) => e);
    expect(err).toMatchObject({ code: "22012" });
    expect((err as Error).stack).toContain("lib/db/client.test.ts");
  });

  it("fails the transaction with a held-back write's own error, at the next statement or at COMMIT, and commits nothing", async () => {
    const a = newOrgId();
    const dup = newOrgId();
    await insertOrg(db(), dup);
    // At COMMIT: the database rolls back, the call rejects with the write's (mapped) error.
    await expect(
      transaction(async (tx) => {
        await insertOrg(tx, a);
        await laterOrg(tx, dup, (err) => new Error(`mapped: ${(err as { code?: string }).code}`));
      }),
    ).rejects.toThrow("mapped: 23505");
    expect(await committed(a)).toBe(false);

    // At the next statement: it rejects with the write's error, not "transaction is aborted".
    const b = newOrgId();
    let seen: unknown;
    await expect(
      transaction(async (tx) => {
        await laterOrg(tx, dup);
        try {
          await insertOrg(tx, b);
        } catch (err) {
          seen = err;
          throw err;
        }
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect(seen).toMatchObject({ code: "23505" });
    expect(await committed(b)).toBe(false);

    // Swallowed by the function: COMMIT still rolls back and the call still fails.
    const c = newOrgId();
    await expect(
      transaction(async (tx) => {
        await laterOrg(tx, dup);
        await insertOrg(tx, c).catch(() => undefined);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect(await committed(c)).toBe(false);
    // The connections went back to the pool in a usable state.
    for (let i = 0; i < 12; i++) await transaction(async (tx) => sql(tx, "SELECT 1"));
  });

  it("the idempotency store fails its transaction with KeyTakenMeanwhile when the key was completed meanwhile", async () => {
    const scope = `test:${randomUUID()}`;
    const claim = { scope, organizationId: NO_ORGANIZATION, key: "k1", method: "POST", path: "/api/v1/probe", fingerprint: "f" };
    const reply = { status: 201, body: "{}", headers: {} };
    await transaction(async (tx) => storeInTx(tx, claim, reply));
    const a = newOrgId();
    await expect(
      transaction(async (tx) => {
        await insertOrg(tx, a);
        await storeInTx(tx, claim, { ...reply, body: '{"second":true}' });
      }),
    ).rejects.toBeInstanceOf(KeyTakenMeanwhile);
    expect(await committed(a)).toBe(false);
    // The first response is the one kept (its body sealed; lookup opens it).
    expect(await lookup(db(), claim)).toEqual(reply);
    await observer.query("DELETE FROM idempotency_records WHERE scope = $1", [scope]);
  });

  it("the claim made from an API key's digest takes the lock claimInTx takes for the key's organization, and reads its record", async () => {
    const org = newOrgId();
    await insertOrg(db(), org);
    const keyHash = `probe-${randomUUID()}`;
    await observer.query("INSERT INTO api_keys (id, organization_id, key_hash, prefix, scopes) VALUES (gen_random_uuid(), $1::uuid, $2, 'probe', '{}')", [
      org,
      keyHash,
    ]);
    const claim = { scope: `org:${org}`, organizationId: org, key: `k-${randomUUID()}`, method: "POST", path: "/api/v1/probe", fingerprint: "f" };
    try {
      // No key with this digest: no row, no lock.
      expect(await transaction(async (tx) => claimForApiKeyInTx(tx, "no-such-digest", claim.key))).toEqual([]);
      if (!embedded) {
        // While one transaction holds the key through claimInTx, the other form finds it locked.
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        let claimed!: () => void;
        const holding = new Promise<void>((r) => (claimed = r));
        const holder = transaction(async (tx) => {
          await claimInTx(tx, claim);
          claimed();
          await held;
        });
        await holding;
        const [row] = await transaction(async (tx) => claimForApiKeyInTx(tx, keyHash, claim.key));
        expect(row).toMatchObject({ locked: false, scope: claim.scope, state: null });
        release();
        await holder;
      }
      // A completed record is read by the API key's claim.
      await transaction(async (tx) => storeInTx(tx, claim, { status: 201, body: '{"ok":true}', headers: {} }));
      const [row] = await transaction(async (tx) => claimForApiKeyInTx(tx, keyHash, claim.key));
      expect(row).toMatchObject({ locked: true, scope: claim.scope, state: "completed", response_status: 201, fingerprint: "f" });
      expect(row.response_body).not.toContain('"ok"'); // sealed (base64 has no quotes; "ok" alone can occur by chance)
      expect(claimed(row, claim)).toEqual({ status: 201, body: '{"ok":true}', headers: {} });
    } finally {
      await observer.query("DELETE FROM idempotency_records WHERE scope = $1", [claim.scope]);
      await observer.query("DELETE FROM api_keys WHERE organization_id = $1::uuid", [org]);
    }
  });
});
