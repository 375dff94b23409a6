import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ensureBuilt } from "./build-state";
import { serverNodeFlags, serverProcessEnv } from "./server-flags";

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
  // past the pooler when DIRECT_DATABASE_URL is set (lib/db/migrate.ts)
  const { migrate } = await import("@/lib/db/migrate");
  const applied = await migrate(config.DIRECT_DATABASE_URL || config.DATABASE_URL!);
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
  const { disconnectDb } = await import("@/lib/db/client");
  await disconnectDb();

  // scripts/serve.cjs: scripts/server.mjs in WEB_CONCURRENCY processes (one by default).
  const args = ["scripts/serve.cjs"];
  if (process.env.FOS_CPU_PROF_DIR) args.unshift("--cpu-prof", `--cpu-prof-dir=${process.env.FOS_CPU_PROF_DIR}`);
  // V8 settings of the server (scripts/server-flags.ts): SERVER_NODE_FLAGS replaces them;
  // glibc's MALLOC_ARENA_MAX defaults to 2 (serverProcessEnv).
  args.unshift(...serverNodeFlags());
  const child = spawn(process.execPath, args, {
    stdio: "inherit",
    env: { ...process.env, ...serverProcessEnv(), PORT: String(config.PORT), NEXT_TELEMETRY_DISABLED: "1" },
  });
  const forward = (sig: NodeJS.Signals) => child.kill(sig);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  child.on("exit", async (code) => {
    await runExitHooks();
    process.exit(code ?? 0);
  });
}

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
