// The load of a scenario driven by wrk (C, epoll; Debian's package `wrk`) instead of
// autocannon, with BENCH_LOAD=wrk: for the scenarios whose requests are a fixed method, a
// rotation of paths and a body with one number that must be new in every request (an
// Idempotency-Key, an external reference). autocannon runs in the bench's own Node.js
// process and takes ~0.35–0.45 ms of CPU per registration on this machine, ~7 % of two cores
// that the server and the database also need; wrk is what issue 17's own measurement used.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

export const WRK = "/usr/bin/wrk";

// `unique`: every occurrence of "%N%" in the body and in the header values is replaced by a
// text new in each request of the run.
export type WrkSpec = { method: string; paths: string[]; headers?: Record<string, string>; body?: string };
// What a timed window gave, from wrk or autocannon (scripts/bench/run.ts runAutocannon).
export type LoadResult = { p50: number; p99: number; seconds: number; codes: Record<string, number>; socketErrors: number; timeouts: number };

const lua = (s: string) => {
  if (s.includes("]==]")) throw new Error("wrk: a text that ends a Lua long string");
  return `[==[${s}]==]`;
};

function script(spec: WrkSpec, runId: string): string {
  const headers = Object.entries(spec.headers ?? {})
    .map(([k, v]) => `[ ${lua(k)} ] = ${lua(v)}`)
    .join(", ");
  return `
local method, body = ${lua(spec.method)}, ${spec.body === undefined ? "nil" : lua(spec.body)}
local paths = { ${spec.paths.map(lua).join(", ")} }
local headers = { ${headers} }
local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end
function init(args)
  n = 0
  codes = {}
  prefix = ${lua(runId)} .. "-" .. tid .. "-"
end
function request()
  n = n + 1
  local unique = prefix .. n
  local h = {}
  for k, v in pairs(headers) do h[k] = string.gsub(v, "%%N%%", unique) end
  local b = body and string.gsub(body, "%%N%%", unique) or nil
  return wrk.format(method, paths[(n % #paths) + 1], h, b)
end
function response(status, hdrs, b)
  codes[status] = (codes[status] or 0) + 1
end
function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("codes")) do total[k] = (total[k] or 0) + v end
  end
  local parts = {}
  for k, v in pairs(total) do table.insert(parts, string.format('"%d":%d', k, v)) end
  local e = summary.errors
  io.write(string.format('FOS_WRK {"p50":%d,"p99":%d,"us":%d,"socketErrors":%d,"timeouts":%d,"codes":{%s}}\\n',
    latency:percentile(50), latency:percentile(99), summary.duration, e.connect + e.read + e.write, e.timeout, table.concat(parts, ",")))
end
`;
}

export async function runWrk(baseUrl: string, spec: WrkSpec, connections: number, seconds: number): Promise<LoadResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "fos-wrk-"));
  const file = path.join(dir, "load.lua");
  writeFileSync(file, script(spec, randomUUID().slice(0, 13))); // new texts in every run of wrk
  const threads = String(Math.max(1, Math.min(connections, os.cpus().length)));
  const { stdout, stderr } = await promisify(execFile)(
    WRK,
    ["-t", threads, "-c", String(connections), "-d", `${seconds}s`, "--timeout", "30s", "-s", file, baseUrl],
    {
      maxBuffer: 16 << 20,
    },
  );
  const line = stdout.split("\n").find((l) => l.startsWith("FOS_WRK "));
  if (!line) throw new Error(`wrk printed no result:\n${stdout}\n${stderr}`);
  const r = JSON.parse(line.slice("FOS_WRK ".length)) as {
    p50: number;
    p99: number;
    us: number;
    socketErrors: number;
    timeouts: number;
    codes: Record<string, number>;
  };
  return {
    p50: Math.round(r.p50 / 1000),
    p99: Math.round(r.p99 / 1000),
    seconds: r.us / 1e6,
    codes: r.codes,
    socketErrors: r.socketErrors,
    timeouts: r.timeouts,
  };
}
