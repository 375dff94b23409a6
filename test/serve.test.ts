import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { Api } from "./support/api";
import { serverProcessIds, startServer, type TestServer } from "./support/server";
import { registerObligation } from "./support/obligations";

// WEB_CONCURRENCY=n: `npm start` runs n server processes on one port (scripts/serve.cjs).
// A second server on the suite's database, with two processes.
let server: TestServer;
let org: OrgFixture;

beforeAll(async () => {
  server = await startServer({ databaseUrl: inject("databaseUrl"), label: "serve-2", env: { WEB_CONCURRENCY: "2" } });
  org = await newOrg("Two Processes Ltd");
}, 240_000);
afterAll(async () => {
  await server?.stop();
});

const serverProcesses = () => serverProcessIds(server);

// The request log lines since `from` (a byte offset of the log), by process.
const requestsByProcess = (from: number): Map<number, number> => {
  const by = new Map<number, number>();
  for (const line of readFileSync(server.logFile, "utf8").slice(from).split("\n")) {
    if (!line.includes('"msg":"request"')) continue;
    const { pid } = JSON.parse(line) as { pid: number };
    by.set(pid, (by.get(pid) ?? 0) + 1);
  }
  return by;
};
const logSize = () => readFileSync(server.logFile, "utf8").length;

// A GET on a connection of its own: the cluster hands out connections, not requests, and a
// client's kept-alive connections would keep going to the processes they were opened to.
// 0 when it fails or has no answer within 10 s (as a client or load balancer gives up).
const freshGet = (api: Api, path: string) =>
  new Promise<number>((resolve) => {
    const req = http.get(`${api.baseUrl}/api/v1${path}`, { agent: false, headers: { authorization: `Bearer ${api.apiKey}` } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(10_000, () => req.destroy());
    req.on("error", () => resolve(0));
  });

const burst = async (api: Api) => {
  const replies = await Promise.all(
    Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? registerObligation(api).then(() => 201) : freshGet(api, "/obligations?limit=5"))),
  );
  expect(replies.filter((s) => s !== 200 && s !== 201)).toEqual([]);
};

describe("WEB_CONCURRENCY=2", () => {
  it("starts every server process with glibc limited to two malloc arenas", () => {
    // npm start's default (scripts/server-flags.ts, serverProcessEnv), read from the
    // environment each process was started with
    const pids = serverProcesses();
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) {
      const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
      expect(environ).toContain(process.env.MALLOC_ARENA_MAX ? `MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX}` : "MALLOC_ARENA_MAX=2");
    }
  });

  it("runs two server processes on the one port, and both serve requests", async () => {
    const pids = serverProcesses();
    expect(pids).toHaveLength(2);
    const from = logSize();
    await burst(new Api(server.baseUrl, org.apiKey));
    // (each process writes its request line before it answers, but the line reaches the log
    // file through this process's pipe: wait until all 24 are there)
    const total = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    let served = requestsByProcess(from);
    for (const until = Date.now() + 10_000; total(served) < 24 && Date.now() < until; served = requestsByProcess(from)) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect([...served.keys()].sort()).toEqual([...pids].sort());
    expect(total(served)).toBe(24);
  });

  it("replaces a process that dies, and the port keeps answering", async () => {
    const [victim, survivor] = serverProcesses();
    process.kill(victim, "SIGKILL");
    const api = new Api(server.baseUrl, org.apiKey);
    // The survivor answers while the replacement starts. A connection the primary hands to the
    // victim in the instant before it sees the death is never answered (Node's cluster;
    // docs/architecture.md "Serving"), so the client retries on a fresh connection, as any does.
    const tries: number[] = [];
    while (tries.length < 3 && tries.at(-1) !== 200) tries.push(await freshGet(api, "/obligations?limit=1"));
    expect(tries.at(-1)).toBe(200);
    // (the primary's line reaches the log file through this process's pipe, so it may land
    // after the replacement shows up in the process list: wait for both)
    const ended = `server process ${victim} ended (SIGKILL); starting another`;
    let now: number[] = [];
    for (const until = Date.now() + 60_000; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
      now = serverProcesses();
      if (now.length === 2 && !now.includes(victim) && readFileSync(server.logFile, "utf8").includes(ended)) break;
    }
    expect(now).toContain(survivor);
    expect(now).not.toContain(victim);
    expect(now).toHaveLength(2);
    expect(readFileSync(server.logFile, "utf8")).toContain(ended);
    // Once the replacement listens, both serve again.
    const replacement = now.find((p) => p !== survivor)!;
    let served = new Map<number, number>();
    for (const until = Date.now() + 60_000; Date.now() < until && !served.has(replacement); ) {
      const from = logSize();
      await burst(api);
      served = requestsByProcess(from);
    }
    expect(served.has(replacement)).toBe(true);
  }, 180_000);

  it("stops every process on SIGTERM", async () => {
    await server.stop();
    const inGroup = () =>
      execSync("ps -eo pid=,pgid=", { encoding: "utf8" })
        .split("\n")
        .map((l) => l.trim().split(/\s+/).map(Number))
        .filter(([, pgid]) => pgid === server.process.pid);
    let left = inGroup();
    for (const until = Date.now() + 15_000; left.length > 0 && Date.now() < until; left = inGroup()) await new Promise((r) => setTimeout(r, 200));
    expect(left).toEqual([]);
  });
});
