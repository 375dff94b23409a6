import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// What lib/db/client.ts's transactions rely on in node-postgres beyond its documented API, pinned
// here so that an upgrade that changes it fails this file instead of the transactions
// (docs/architecture.md, "Why: transactions on one connection").
//  - `pipeline: true` (a config option missing from @types/pg): a statement is written at once,
//    without waiting for the answer to the one before;
//  - `client.connection.stream`: the socket, corked so that a tick's statements leave in one write;
//  - `client.query(config, callback)`: the callback form, answered once with (err, result);
//  - pg-pool's `query` checks a connection out through `pool.connect(callback)`, which is where
//    lib/db/client.ts routes a transaction's statements to its connection.
describe.skipIf(!process.env.DATABASE_URL)("node-postgres internals used by lib/db/client.ts", () => {
  let client: pg.Client;
  type Internals = { pipeline: boolean; connection: { stream: { cork(): void; uncork(): void; writableLength: number; writableCorked: number } } };
  const internals = (c: pg.Client) => c as unknown as Internals;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: process.env.DATABASE_URL, pipeline: true } as pg.ClientConfig);
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
  });

  it("takes the pipeline option and exposes the socket as connection.stream", () => {
    expect(internals(client).pipeline).toBe(true);
    const stream = internals(client).connection.stream;
    expect(typeof stream.cork).toBe("function");
    expect(typeof stream.uncork).toBe("function");
  });

  it("writes a second statement before the first is answered, into the corked socket", async () => {
    const stream = internals(client).connection.stream;
    stream.cork();
    let first: Promise<pg.QueryResult>;
    let second: Promise<pg.QueryResult>;
    let afterFirst = 0;
    let afterSecond = 0;
    try {
      first = client.query("SELECT 1 AS n");
      afterFirst = stream.writableLength;
      second = client.query("SELECT 2 AS n");
      afterSecond = stream.writableLength;
      expect(stream.writableCorked).toBe(1);
    } finally {
      stream.uncork();
    }
    // Both statements sat in the corked socket together (without pipelining the second would
    // wait in the client's queue for the first one's answer).
    expect(afterFirst).toBeGreaterThan(0);
    expect(afterSecond).toBeGreaterThan(afterFirst);
    expect((await first).rows).toEqual([{ n: 1 }]);
    expect((await second).rows).toEqual([{ n: 2 }]);
  });

  it("answers the callback form once, with the error or the result", async () => {
    const call = (text: string) =>
      new Promise<{ err: Error | null; res?: pg.QueryResult; calls: number }>((resolve) => {
        let calls = 0;
        const returned = (client.query as (...a: unknown[]) => unknown)({ text }, (err: Error | null, res?: pg.QueryResult) => {
          calls++;
          setImmediate(() => resolve({ err, res, calls }));
        });
        expect(returned).toBeUndefined();
      });
    const ok = await call("SELECT 3 AS n");
    expect(ok.err).toBeNull();
    expect(ok.res?.rows).toEqual([{ n: 3 }]);
    expect(ok.calls).toBe(1);
    const bad = await call("SELECT * FROM no_such_table_here");
    expect(bad.err).toBeInstanceOf(Error);
    expect(bad.calls).toBe(1);
  });

  it("pool.query checks its connection out through pool.connect with a callback", async () => {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    const connect = pool.connect.bind(pool) as (...a: unknown[]) => unknown;
    const seen: string[] = [];
    pool.connect = ((...args: unknown[]) => {
      seen.push(typeof args[0]);
      return connect(...args);
    }) as typeof pool.connect;
    try {
      expect((await pool.query("SELECT 4 AS n")).rows).toEqual([{ n: 4 }]);
      expect(seen).toEqual(["function"]);
    } finally {
      await pool.end();
    }
  });
});
