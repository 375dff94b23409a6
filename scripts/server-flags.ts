import { spawnSync } from "node:child_process";

// V8 flags of the server: a 1 GiB old-space limit. Without one, V8 sizes the heap for the
// machine's memory (a 4 GiB limit on a 24 GiB machine) and collects the old generation late:
// 370-490 MiB resident under `npm run bench`; with 1 GiB, 240-280 MiB. 384 MiB held the
// benchmark at 190-280 MiB too, but the full test suite (many uploads and imports at once
// against one server) ran it out of heap: a fatal exit for every request in flight. With
// 1 GiB the same suite passed, peaking at ~700 MiB resident. SERVER_NODE_FLAGS replaces the
// default: size the limit for a deployment's own concurrency of large imports
// (docs/benchmarks.md, "Memory").
// The other two make V8 optimize the request path sooner after a start (docs/benchmarks.md,
// step 13): a function is considered after half the default interrupt budget, and 100 calls
// (not 500) after its inline caches last changed. Under 10 s of registrations at 8
// connections, V8 was still optimizing ~140 functions 25 s after the start with the
// defaults; with these two the server used up to ~10 % less CPU per registration in that
// window. (`--always-sparkplug` did a little better but took the benchmark to 299 MiB.)
// Node.js 22 and later (V8 12+) have no --interrupt-budget and start with a larger young
// generation: on Node.js 24 the server reached 317–319 MiB under 10 s of registrations with
// the old-space limit alone, 233–239 MiB with 16 MiB semi-spaces (the size Node.js 20 uses).
// The old generation's limit after each mark-compact is 1.5 times what survived it
// (--heap-growing-percent=50). V8's own factor follows how fast the old generation fills:
// once the request path stopped promoting much (lib/db/client.ts, `submit`), it kept the limit so
// close to the ~55 MB that stays live that marking started again ~0.6 s after each
// mark-compact (V8 starts it when the room left is under the young generation's capacity),
// and registration cost more CPU than before. With 1.5 the mark-compacts halved, the
// server's CPU per registration was the lowest of the four combinations tried, and the
// whole benchmark stayed at 262 MiB (docs/benchmarks.md, step 17).
// So the heap flags are given always, the two tier-up flags only to a runtime that has them
// (one probe at start, ~40 ms): a flag the runtime does not know would stop it at once.
const HEAP_FLAGS = ["--max-old-space-size=1024", "--max-semi-space-size=16", "--heap-growing-percent=50"];
const TIER_UP_FLAGS = ["--interrupt-budget=33792", "--minimum-invocations-after-ic-update=100"];

export function serverNodeFlags(node = process.execPath, given = process.env.SERVER_NODE_FLAGS): string[] {
  if (given !== undefined) return given.split(/\s+/).filter(Boolean);
  const tuned = [...HEAP_FLAGS, ...TIER_UP_FLAGS];
  return spawnSync(node, [...tuned, "-e", ""], { stdio: "ignore" }).status === 0 ? tuned : HEAP_FLAGS;
}

// glibc's malloc arenas of the server process. By default glibc gives each thread that
// allocates its own arena, up to 8 per core, and keeps their freed memory; the server runs
// ~10 threads (libuv's pool, V8's platform workers). Two arenas held the whole benchmark at
// 261 and 280 MiB resident where the default reached 304 and 311, with no less throughput
// (docs/benchmarks.md, step 16). A value in the environment is kept; C libraries other
// than glibc ignore the variable.
export function serverProcessEnv(given = process.env.MALLOC_ARENA_MAX): { MALLOC_ARENA_MAX: string } {
  return { MALLOC_ARENA_MAX: given || "2" };
}
