import { randomUUID } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import pg from "pg";
import { createTestDatabase, startServer, TEST_APP_SECRET, type TestServer } from "../support/server";
import { registration } from "../support/bodies";
import { startOwnPostgres, type OwnPostgres } from "./postgres";

// Fault injection against the real server on a PostgreSQL these tests own:
//   kill -9 of the server while clients register and retry with the same key and body;
//   PostgreSQL restarted under load while the same server keeps running;
//   a webhook receiver down for a while; a receiver that accepts and never answers.
// Every figure printed here is reported in docs/reliability.md.
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let pgServer: OwnPostgres | undefined;

beforeAll(async () => {
  pgServer = await startOwnPostgres();
  if (!pgServer) console.warn("test:faults skipped: no PostgreSQL binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin or PG_BIN");
});
afterAll(() => pgServer?.destroy());

async function orgOn(databaseUrl: string): Promise<{ organizationId: string; apiKey: string }> {
  process.env.DATABASE_URL = databaseUrl;
  process.env.APP_SECRET = TEST_APP_SECRET;
  process.env.LOG_LEVEL = "silent";
  vi.resetModules(); // lib/env caches the environment of the previous test's database
  const { createOrganization } = await import("@/lib/organizations/create-organization");
  const { disconnectDb } = await import("@/lib/db/client");
  await disconnectDb(); // a previous test's database
  const r = await createOrganization({ name: "Faults", ownerEmail: `o-${randomUUID()}@example.test`, ownerPassword: "correct-horse-battery-staple" });
  await disconnectDb();
  return { organizationId: r.organization_id, apiKey: r.api_key };
}

type Ack = { key: string; externalId: string; obligationId: string };
type Load = { acks: Ack[]; statuses: Map<number, number>; unexpected: string[]; networkErrors: number; stop: () => Promise<void> };

// `clients` registrars, each registering one obligation after the other and retrying each
// with the same Idempotency-Key and body until it is acknowledged (201), as a well-behaved
// client does after a network error, 409, 503 or 502.
function startLoad(target: { baseUrl: string }, apiKey: string, clients: number): Load {
  const load: Load = { acks: [], statuses: new Map(), unexpected: [], networkErrors: 0, stop: async () => {} };
  let stopping = false;
  const one = async () => {
    while (!stopping) {
      const body = registration();
      const key = `fault-${randomUUID()}`;
      for (;;) {
        let status: number;
        let text: string;
        let retryAfter: string | null = null;
        try {
          const res = await fetch(`${target.baseUrl}/api/v1/obligations`, {
            method: "POST",
            headers: { authorization: `Bearer ${apiKey}`, "idempotency-key": key, "content-type": "application/json" },
            body: JSON.stringify(body),
            signal: AbortSignal.timeout(30_000),
          });
          status = res.status;
          text = await res.text();
          retryAfter = res.headers.get("retry-after");
        } catch {
          load.networkErrors++;
          await sleep(100);
          continue;
        }
        load.statuses.set(status, (load.statuses.get(status) ?? 0) + 1);
        if (status === 201) {
          load.acks.push({ key, externalId: body.external_reference.id, obligationId: JSON.parse(text).obligation.id });
          break;
        }
        if (status === 409 || status === 503) {
          if (!retryAfter) load.unexpected.push(`${status} without Retry-After: ${text.slice(0, 200)}`);
          await sleep(Math.min(Number(retryAfter ?? 1), 1) * 200);
          continue;
        }
        load.unexpected.push(`${status}: ${text.slice(0, 300)}`);
        break;
      }
    }
  };
  const running = Array.from({ length: clients }, one);
  load.stop = async () => {
    stopping = true;
    await Promise.all(running);
  };
  return load;
}

async function checkExactlyOnce(databaseUrl: string, organizationId: string, acks: Ack[]) {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const rows = (
      await c.query<{ external_id: string; id: string }>("SELECT external_id, id::text AS id FROM obligations WHERE organization_id = $1", [organizationId])
    ).rows;
    const byExternal = new Map<string, string[]>();
    for (const r of rows) byExternal.set(r.external_id, [...(byExternal.get(r.external_id) ?? []), r.id]);
    const lost = acks.filter((a) => !byExternal.get(a.externalId)?.includes(a.obligationId));
    const twice = [...byExternal].filter(([, ids]) => ids.length > 1);
    expect(lost, "acknowledged registrations missing").toEqual([]);
    expect(twice, "registrations stored twice").toEqual([]);
    return rows.length;
  } finally {
    await c.end();
  }
}

describe("faults", () => {
  it("kill -9 of the server during retried registrations: every acknowledged one exists exactly once", async (t) => {
    if (!pgServer) return t.skip();
    const databaseUrl = await createTestDatabase(pgServer.adminUrl);
    let server: TestServer = await startServer({ databaseUrl, label: "faults-kill" });
    const target = { baseUrl: server.baseUrl };
    try {
      const { organizationId, apiKey } = await orgOn(databaseUrl);
      const load = startLoad(target, apiKey, 8);
      await sleep(3000);
      const before = load.acks.length;
      await server.stop("SIGKILL");
      const killedAt = Date.now();
      server = await startServer({ databaseUrl, label: "faults-kill-2" });
      const upAt = Date.now();
      target.baseUrl = server.baseUrl;
      // Ends when every client has had an acknowledgement after the restart.
      const afterRestart = load.acks.length;
      for (let i = 0; i < 600 && load.acks.length < afterRestart + 16; i++) await sleep(100);
      const firstAckAfter = Date.now();
      await load.stop();
      const stored = await checkExactlyOnce(databaseUrl, organizationId, load.acks);
      console.log(
        `faults kill-9: ${load.acks.length} acknowledged (${before} before the kill), ${stored} stored, restart took ${upAt - killedAt} ms, ` +
          `16 more acknowledgements ${firstAckAfter - upAt} ms after the new server answered; statuses ${JSON.stringify(Object.fromEntries(load.statuses))}, ` +
          `network errors ${load.networkErrors}`,
      );
      expect(load.unexpected).toEqual([]);
      expect(load.acks.length).toBeGreaterThan(afterRestart);
    } finally {
      await server.stop();
    }
  });

  it("PostgreSQL restarted under load: the same server answers again (503 meanwhile) and loses no acknowledged write", async (t) => {
    if (!pgServer) return t.skip();
    const databaseUrl = await createTestDatabase(pgServer.adminUrl);
    const server = await startServer({ databaseUrl, label: "faults-pg" });
    try {
      const { organizationId, apiKey } = await orgOn(databaseUrl);
      const load = startLoad(server, apiKey, 8);
      await sleep(3000);
      pgServer.stop();
      const downAt = Date.now();
      await sleep(3000);
      // While the database is down: a prompt 503 with Retry-After, never a hang or a 500.
      const probe = await fetch(`${server.baseUrl}/api/v1/obligations`, {
        headers: { authorization: `Bearer ${apiKey}` },
        signal: AbortSignal.timeout(20_000),
      });
      const probeBody = await probe.json();
      expect(probe.status).toBe(503);
      expect(probe.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(probeBody).toEqual({ error: { code: "service_unavailable", message: expect.any(String) } });
      pgServer.start();
      const upAt = Date.now();
      const acksAtUp = load.acks.length;
      let answeredAt: number | undefined;
      for (let i = 0; i < 300; i++) {
        const r = await fetch(`${server.baseUrl}/api/v1/obligations?limit=1`, { headers: { authorization: `Bearer ${apiKey}` } }).catch(() => undefined);
        if (r?.status === 200) {
          answeredAt = Date.now();
          break;
        }
        await sleep(100);
      }
      for (let i = 0; i < 300 && load.acks.length < acksAtUp + 16; i++) await sleep(100);
      await load.stop();
      expect(answeredAt, "the server answered again within 30 s of PostgreSQL being back").toBeDefined();
      const stored = await checkExactlyOnce(databaseUrl, organizationId, load.acks);
      console.log(
        `faults pg-restart: down ${upAt - downAt} ms; served again ${answeredAt! - upAt} ms after PostgreSQL was back; ` +
          `${load.acks.length} acknowledged, ${stored} stored; statuses ${JSON.stringify(Object.fromEntries(load.statuses))}, network errors ${load.networkErrors}`,
      );
      expect(load.unexpected).toEqual([]);
      expect(load.statuses.get(500) ?? 0).toBe(0);
    } finally {
      await server.stop();
    }
  });

  describe("webhooks", () => {
    type Receiver = { url: string; received: { id: string; at: number }[]; close: () => Promise<void>; port: number };
    async function receiver(opts: { port?: number; hang?: boolean } = {}): Promise<Receiver> {
      const received: { id: string; at: number }[] = [];
      const sockets = new Set<net.Socket>();
      const srv = http.createServer((req, res) => {
        req.resume();
        req.on("end", () => {
          received.push({ id: String(req.headers["webhook-id"]), at: Date.now() });
          if (!opts.hang) res.writeHead(200).end("ok");
        });
      });
      srv.on("connection", (s) => {
        sockets.add(s);
        s.on("close", () => sockets.delete(s));
      });
      await new Promise<void>((r) => srv.listen(opts.port ?? 0, "127.0.0.1", () => r()));
      const port = (srv.address() as net.AddressInfo).port;
      return {
        url: `http://127.0.0.1:${port}/hook`,
        port,
        received,
        close: () =>
          new Promise<void>((r) => {
            for (const s of sockets) s.destroy();
            srv.close(() => r());
          }),
      };
    }
    const api = (server: TestServer, apiKey: string) => async (path: string, body: unknown) => {
      const r = await fetch(`${server.baseUrl}/api/v1${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "idempotency-key": `wh-${randomUUID()}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const json = await r.json();
      expect(r.status, JSON.stringify(json)).toBe(201);
      return json;
    };
    async function eventIds(databaseUrl: string, organizationId: string): Promise<string[]> {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      try {
        return (await c.query<{ id: string }>("SELECT id::text AS id FROM events WHERE organization_id = $1", [organizationId])).rows.map((r) => r.id);
      } finally {
        await c.end();
      }
    }

    it("a receiver down for a while gets every event once it is back", async (t) => {
      if (!pgServer) return t.skip();
      const databaseUrl = await createTestDatabase(pgServer.adminUrl);
      const server = await startServer({
        databaseUrl,
        label: "faults-wh-down",
        // Attempts for 10 minutes after each event, a few seconds apart.
        env: { WEBHOOK_WORKER: "on", WEBHOOK_WORKER_INTERVAL_MS: "200", WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 200 }, (_, i) => i * 3).join(",") },
      });
      let rcv = await receiver();
      try {
        const { organizationId, apiKey } = await orgOn(databaseUrl);
        const post = api(server, apiKey);
        await post("/webhook-endpoints", { url: rcv.url, secret: "whsec-faults-0123456789abcdef-0123456789" });
        const port = rcv.port;
        await rcv.close(); // down
        const downAt = Date.now();
        for (let i = 0; i < 10; i++) await post("/obligations", registration());
        await sleep(5000);
        rcv = await receiver({ port }); // back on the same address
        const events = await eventIds(databaseUrl, organizationId);
        const backAt = Date.now();
        for (let i = 0; i < 1200 && !events.every((id) => rcv.received.some((r) => r.id === id)); i++) await sleep(100);
        const missing = events.filter((id) => !rcv.received.some((r) => r.id === id));
        console.log(
          `faults receiver-down: down ${backAt - downAt} ms; ${events.length} events, all delivered ${Date.now() - backAt} ms after the receiver was back ` +
            `(retry schedule every 3 s); ${rcv.received.length} deliveries`,
        );
        expect(events.length).toBeGreaterThanOrEqual(10);
        expect(missing).toEqual([]);
      } finally {
        await rcv.close();
        await server.stop();
      }
    });

    it("a receiver that accepts and never answers does not delay deliveries to another endpoint", async (t) => {
      if (!pgServer) return t.skip();
      const databaseUrl = await createTestDatabase(pgServer.adminUrl);
      // The hanging receiver would be timed out only after 120 s: every healthy delivery must
      // arrive long before that, while the hanging requests are still open.
      const server = await startServer({
        databaseUrl,
        label: "faults-wh-hang",
        env: { WEBHOOK_WORKER: "on", WEBHOOK_WORKER_INTERVAL_MS: "200", WEBHOOK_TIMEOUT_MS: "120000" },
      });
      const hang = await receiver({ hang: true });
      const healthy = await receiver();
      try {
        const { organizationId, apiKey } = await orgOn(databaseUrl);
        const post = api(server, apiKey);
        await post("/webhook-endpoints", { url: hang.url, secret: "whsec-faults-0123456789abcdef-0123456789" });
        await post("/webhook-endpoints", { url: healthy.url, secret: "whsec-faults-0123456789abcdef-9876543210" });
        const created: { at: number }[] = [];
        for (let i = 0; i < 12; i++) {
          await post("/obligations", registration());
          created.push({ at: Date.now() });
          await sleep(300);
        }
        const events = await eventIds(databaseUrl, organizationId);
        for (let i = 0; i < 300 && !events.every((id) => healthy.received.some((r) => r.id === id)); i++) await sleep(100);
        const missing = events.filter((id) => !healthy.received.some((r) => r.id === id));
        const lastCreated = created[created.length - 1].at;
        const lastHealthy = Math.max(...healthy.received.map((r) => r.at));
        console.log(
          `faults hanging-receiver: ${events.length} events; the healthy endpoint had all ${Date.now() - lastCreated} ms after the last event ` +
            `(last delivery ${lastHealthy - lastCreated} ms after it) while ${hang.received.length} requests to the hanging one stayed open`,
        );
        expect(missing).toEqual([]);
        expect(hang.received.length).toBeGreaterThan(0);
      } finally {
        await hang.close();
        await healthy.close();
        await server.stop();
      }
    });
  });
});
