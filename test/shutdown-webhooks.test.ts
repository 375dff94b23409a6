import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Api } from "./support/api";
import { registration } from "./support/bodies";
import { createTestDatabase, startServer, type TestServer } from "./support/server";
import { SECRET, startReceiver, waitUntil, type Receiver } from "./support/webhooks";
import { createOrganization } from "@/lib/organizations/create-organization";

// SIGTERM hands back the lease of a webhook attempt still waiting for its receiver when the
// grace period ends (docs/scaling.md, "Stopping an instance"), so another instance can
// attempt it at once. Its own database: a lease handed back in the shared one would be
// taken by the other test files' flushers, whose deliveries this server's worker would take.

let owner: TestServer; // owns the embedded database on PGlite; no worker
let s: TestServer;
let rcv: Receiver;
let direct: pg.Client;

beforeAll(async () => {
  const admin = process.env.TEST_DATABASE_URL;
  const databaseUrl = admin ? await createTestDatabase(admin) : undefined;
  rcv = await startReceiver(() => ({ status: 200, delayMs: 120_000 })); // never answers in time
  owner = await startServer({ databaseUrl, label: "shutdown-owner" });
  s = await startServer({
    databaseUrl: owner.databaseUrl,
    label: "shutdown-webhook",
    env: { WEBHOOK_WORKER: "on", WEBHOOK_WORKER_INTERVAL_MS: "100", WEBHOOK_TIMEOUT_MS: "60000", SHUTDOWN_GRACE_MS: "3000" },
  });
  process.env.DATABASE_URL = owner.databaseUrl; // fixtures in this file's database
  direct = new pg.Client({ connectionString: owner.databaseUrl });
  await direct.connect();
}, 300_000);

afterAll(async () => {
  await direct?.end();
  await s?.stop("SIGKILL");
  await owner?.stop();
  await rcv?.close();
});

it("hands back the lease of a webhook attempt still waiting for its receiver when the grace period ends, and exits 0", async () => {
  const r = await createOrganization({
    name: "Shutdown Webhook Org",
    ownerEmail: `owner-${randomUUID()}@example.test`,
    ownerPassword: "correct-horse-battery-staple",
  });
  const api = new Api(s.baseUrl, r.api_key);
  expect((await api.post("/webhook-endpoints", { url: rcv.url, secret: SECRET })).status).toBe(201);
  expect((await api.post("/obligations", registration())).status).toBe(201);
  await waitUntil(() => rcv.received.length > 0, 20_000);
  const lease = async () =>
    (
      await direct.query<{ status: string; attempts: number; leased: boolean }>(
        "SELECT status, attempts, lease_until IS NOT NULL AS leased FROM webhook_deliveries WHERE organization_id = $1",
        [r.organization_id],
      )
    ).rows[0];
  expect(await lease()).toEqual({ status: "pending", attempts: 0, leased: true });
  const exited = new Promise<number | null>((resolve) => s.process.once("exit", (code) => resolve(code)));
  process.kill(s.process.pid!, "SIGTERM");
  expect(await exited).toBe(0);
  expect(await lease()).toEqual({ status: "pending", attempts: 0, leased: false });
});
