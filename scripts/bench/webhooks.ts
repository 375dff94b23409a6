import http from "node:http";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

// Webhook delivery throughput: N events for one endpoint, delivered by flushWebhooks()
// (the same code the worker and the cron route run) to a receiver on 127.0.0.1 that
// answers 200 at once. Bounded (BENCH_COUNT, default 2000), loopback only, stops by itself.
//
//   npx tsx scripts/bench/webhooks.ts                       # embedded database (PGlite)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5433/postgres npx tsx scripts/bench/webhooks.ts
//   (a scratch database is created on that server and dropped afterwards)
//
// Prints one JSON line: deliveries, seconds, deliveries_per_second, backend.
const COUNT = Math.min(Math.max(Number(process.env.BENCH_COUNT ?? 2000), 1), 100_000);
const FLUSHERS = Math.min(Math.max(Number(process.env.BENCH_FLUSHERS ?? 1), 1), 8);

async function main() {
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const f of cleanups.reverse()) await f().catch(() => undefined);
  };
  try {
    let databaseUrl: string;
    let backend: string;
    const admin = process.env.BENCH_DATABASE_URL;
    if (admin) {
      const name = `fos_bench_${randomBytes(5).toString("hex")}`;
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`CREATE DATABASE ${name}`);
      await c.end();
      cleanups.push(async () => {
        const d = new pg.Client({ connectionString: admin });
        await d.connect();
        await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await d.end();
      });
      const u = new URL(admin);
      u.pathname = `/${name}`;
      databaseUrl = u.toString();
      backend = "postgres";
    } else {
      const dir = mkdtempSync(path.join(os.tmpdir(), "fos-bench-webhooks-"));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const { startEmbeddedDb } = await import("@/lib/db/embedded");
      const embedded = await startEmbeddedDb(dir);
      cleanups.push(() => embedded.close());
      databaseUrl = embedded.url;
      backend = "pglite";
    }
    Object.assign(process.env, {
      DATABASE_URL: databaseUrl,
      APP_SECRET: randomBytes(32).toString("base64url"),
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
      WEBHOOK_RETRY_SCHEDULE: "0,1,2",
      LOG_LEVEL: "silent",
    });

    const { migrate } = await import("@/lib/db/migrate");
    await migrate(databaseUrl);
    const { db, transaction, disconnectDb } = await import("@/lib/db/client");
    cleanups.push(() => disconnectDb());
    const { createOrganization } = await import("@/lib/organizations/create-organization");
    const { createWebhookEndpoint } = await import("@/lib/webhooks/create-endpoint");
    const { recordEvent } = await import("@/lib/events/record-event");
    const { flushWebhooks } = await import("@/lib/webhooks/flush");

    let received = 0;
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received++;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    cleanups.push(() => new Promise<void>((r) => receiver.close(() => r())));
    const port = (receiver.address() as AddressInfo).port;

    const org = await createOrganization({
      name: "Bench",
      ownerEmail: `bench-${randomBytes(4).toString("hex")}@example.test`,
      ownerPassword: "bench-password-123",
    });
    await transaction((tx) =>
      createWebhookEndpoint(tx, {
        organizationId: org.organization_id,
        body: { url: `http://127.0.0.1:${port}/hooks`, secret: randomBytes(24).toString("base64url") },
      }),
    );
    for (let done = 0; done < COUNT; ) {
      const n = Math.min(100, COUNT - done);
      await transaction(async (tx) => {
        for (let i = 0; i < n; i++) {
          await recordEvent(tx, {
            organizationId: org.organization_id,
            type: "obligation.registered",
            principal: { kind: "anonymous" },
            data: { obligation: { id: randomBytes(16).toString("hex"), version: 1, amount_minor: "125000", currency: "EUR" } },
          });
        }
      });
      done += n;
    }

    const started = performance.now();
    const deadline = Date.now() + 600_000;
    for (;;) {
      await Promise.all(Array.from({ length: FLUSHERS }, () => flushWebhooks({ budgetMs: 60_000 })));
      const left = await db().webhookDelivery.count({ where: { organizationId: org.organization_id, status: { not: "succeeded" } } });
      if (left === 0) break;
      if (Date.now() > deadline) throw new Error(`gave up with ${left} deliveries left`);
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(
      JSON.stringify({
        backend,
        flushers: FLUSHERS,
        deliveries: COUNT,
        received,
        seconds: Number(seconds.toFixed(2)),
        deliveries_per_second: Math.round(COUNT / seconds),
      }),
    );
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
