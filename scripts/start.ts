import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureBuilt } from "./build-state";

// `npm start`: embedded database (unless DATABASE_URL), migrations, demo data on an empty
// database, build if the sources changed, then the server (scripts/serve.cjs).
async function main() {
  ensureBuilt();
  if (!process.env.DATABASE_URL) {
    const dataDir = path.resolve(process.env.DATA_DIR ?? "./.data");
    mkdirSync(dataDir, { recursive: true });
    if (!process.env.APP_SECRET) {
      const secretFile = path.join(dataDir, "app-secret");
      if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(32).toString("base64url"), { mode: 0o600 });
      process.env.APP_SECRET = readFileSync(secretFile, "utf8").trim();
    }
    const { runningEmbeddedDb, startEmbeddedDb } = await import("@/lib/db/embedded");
    if (await runningEmbeddedDb(dataDir)) {
      console.error(`Another server already owns ${dataDir}. Stop it, or set DATA_DIR to another folder.`);
      process.exit(1);
    }
    const embedded = await startEmbeddedDb(dataDir);
    process.env.DATABASE_URL = embedded.url;
    onExit(() => embedded.close());
  } else if (!process.env.APP_SECRET) {
    console.error("APP_SECRET is required with DATABASE_URL (at least 32 random characters; keep it out of the database).");
    process.exit(1);
  }

  const { env, publicBaseUrl } = await import("@/lib/env");
  const config = env();
  const { migrate } = await import("@/lib/db/migrate");
  const applied = await migrate(config.DATABASE_URL!);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);

  if (config.DEMO_SEED === "on") {
    const { seedDemo } = await import("@/lib/organizations/seed-demo");
    const demo = await seedDemo();
    if (demo) {
      console.log("\nDemo organization created:");
      console.log(`  Dashboard:  ${publicBaseUrl()}/dashboard`);
      console.log(`  Sign in:    ${demo.email} / ${demo.password}`);
      console.log(`  API key:    ${demo.apiKey}   (shown once; create more with npm run admin -- create-api-key)`);
      console.log(`  API docs:   ${publicBaseUrl()}/docs\n`);
    }
  }
  const { disconnectDb } = await import("@/lib/db");
  await disconnectDb();

  // scripts/serve.cjs: scripts/server.mjs in WEB_CONCURRENCY processes (one by default).
  const args = ["scripts/serve.cjs"];
  if (process.env.FOS_CPU_PROF_DIR) args.unshift("--cpu-prof", `--cpu-prof-dir=${process.env.FOS_CPU_PROF_DIR}`);
  // V8 heap settings of the server (docs/benchmarks.md, "Memory"): SERVER_NODE_FLAGS replaces them.
  args.unshift(...(process.env.SERVER_NODE_FLAGS ?? SERVER_NODE_FLAGS).split(/\s+/).filter(Boolean));
  const child = spawn(process.execPath, args, { stdio: "inherit", env: { ...process.env, PORT: String(config.PORT), NEXT_TELEMETRY_DISABLED: "1" } });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  child.on("exit", async (code) => {
    await runExitHooks();
    process.exit(code ?? 0);
  });
}

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
const SERVER_NODE_FLAGS = "--max-old-space-size=1024 --interrupt-budget=33792 --minimum-invocations-after-ic-update=100";

const exitHooks: (() => Promise<void>)[] = [];
const onExit = (f: () => Promise<void>) => exitHooks.push(f);
async function runExitHooks() {
  for (const f of exitHooks) await f().catch(() => undefined);
}

main().catch(async (err) => {
  console.error(err instanceof Error ? err.message : err);
  await runExitHooks();
  process.exit(1);
});
