import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import net from "node:net";
import { describe, expect, inject, it } from "vitest";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { registration } from "./support/bodies";
import { freePort, pooledUrl, startServer, TEST_APP_SECRET, type TestServer } from "./support/server";
import { sleep, waitUntil } from "./support/webhooks";

// Graceful shutdown (docs/scaling.md): on SIGTERM an instance stops accepting, finishes the
// requests in flight and exits 0 — for the process `npm start` runs and for each of its
// WEB_CONCURRENCY processes. (The webhook leases it hands back: test/shutdown-webhooks.test.ts.)

const exited = (s: TestServer) =>
  new Promise<number | null>((resolve) => {
    if (s.process.exitCode !== null || s.process.signalCode !== null) resolve(s.process.exitCode);
    else s.process.once("exit", (code) => resolve(code));
  });

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const c = net.connect(port, "127.0.0.1");
    c.once("connect", () => {
      c.destroy();
      resolve(false);
    });
    c.once("error", () => resolve(true));
  });

// A registration whose body arrives in two parts: the request is in flight between them.
function slowRegistration(port: number, org: OrgFixture) {
  const body = JSON.stringify(registration());
  const socket = net.connect(port, "127.0.0.1");
  const answer = new Promise<string>((resolve, reject) => {
    let text = "";
    socket.on("data", (d) => (text += d.toString("utf8")));
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });
  const connected = new Promise((r) => socket.once("connect", r));
  const head =
    `POST /api/v1/obligations HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${org.apiKey}\r\n` +
    `Idempotency-Key: slow-${randomUUID()}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  return {
    start: async () => {
      await connected;
      socket.write(head + body.slice(0, 20));
    },
    finish: () => socket.write(body.slice(20)),
    answer,
  };
}

describe("SIGTERM", () => {
  it("finishes a request in flight, refuses new connections, exits 0", async () => {
    const org = await newOrg("Shutdown Org");
    const s = await startServer({ databaseUrl: inject("databaseUrl"), label: "shutdown-slow" });
    try {
      const slow = slowRegistration(s.port, org);
      await slow.start();
      await sleep(300);
      // the process the operator started (scripts/start.ts), as `kill -TERM <pid>` would
      process.kill(s.process.pid!, "SIGTERM");
      await waitUntil(() => refused(s.port), 10_000);
      expect(s.process.exitCode, "still serving the request in flight").toBeNull();
      slow.finish();
      const text = await slow.answer;
      expect(text.split("\r\n")[0]).toBe("HTTP/1.1 201 Created");
      expect(text.toLowerCase()).toContain("connection: close");
      expect(await exited(s)).toBe(0);
      const id = JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)).obligation.id;
      expect(await org.api.get(`/obligations/${id}`).then((r) => r.status)).toBe(200);
    } finally {
      await s.stop("SIGKILL");
    }
  });

  it("with WEB_CONCURRENCY=2: every process finishes what it serves and the whole exits 0", async () => {
    const org = await newOrg("Shutdown Cluster Org");
    const s = await startServer({ databaseUrl: inject("databaseUrl"), label: "shutdown-cluster", env: { WEB_CONCURRENCY: "2" } });
    try {
      const slow = [slowRegistration(s.port, org), slowRegistration(s.port, org)];
      for (const r of slow) await r.start();
      await sleep(300);
      process.kill(s.process.pid!, "SIGTERM");
      await waitUntil(() => refused(s.port), 10_000);
      for (const r of slow) r.finish();
      for (const r of slow) expect((await r.answer).split("\r\n")[0]).toBe("HTTP/1.1 201 Created");
      expect(await exited(s)).toBe(0);
    } finally {
      await s.stop("SIGKILL");
    }
  });

  it("kill -TERM of the `npm start` process stops every process it started", async () => {
    const port = await freePort();
    const databaseUrl = inject("databaseUrl");
    const pooled = inject("backend") === "postgres" ? pooledUrl(databaseUrl) : undefined;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_SECRET: TEST_APP_SECRET,
      DEMO_SEED: "off",
      WEB_CONCURRENCY: "2",
      // no worker of this server may touch the other test files' rows in the shared database
      WEBHOOK_WORKER: "off",
      SCHEDULER_INTERVAL_MS: "0",
      DATABASE_URL: pooled ?? databaseUrl,
      ...(pooled ? { DIRECT_DATABASE_URL: databaseUrl, DATABASE_POOLER: "transaction" } : {}),
    };
    const npm = spawn("npm", ["start"], { env, stdio: "ignore", detached: true });
    const group = npm.pid!;
    try {
      await waitUntil(async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined))?.ok === true, 120_000, 300);
      const code = new Promise<number | null>((r) => npm.once("exit", (c) => r(c)));
      process.kill(npm.pid!, "SIGTERM");
      expect(await code).toBe(0);
      await waitUntil(() => refused(port), 30_000);
      const alive = () => {
        try {
          process.kill(-group, 0);
          return true;
        } catch {
          return false;
        }
      };
      await waitUntil(() => !alive(), 30_000);
    } finally {
      try {
        process.kill(-group, "SIGKILL");
      } catch {
        /* gone */
      }
    }
  });
});
