import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { ensureBuilt } from "./build-state";

// `npm test`: build if needed, then the integration suite (vitest, real HTTP against the
// real server) and the browser suite (Playwright in Debian's Chromium).
// TEST_DATABASE_URL=postgres://... runs both against real PostgreSQL instead of PGlite.
ensureBuilt();

const run = (args: string[]) =>
  spawnSync(process.execPath, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } }).status ?? 1;

const only = process.env.TEST_ONLY; // "integration" | "e2e"
let failed = 0;
if (only !== "e2e") failed += run(["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)]) === 0 ? 0 : 1;
const hasE2e = existsSync("e2e") && readdirSync("e2e", { recursive: true }).some((f) => String(f).endsWith(".spec.ts"));
if (only !== "integration" && hasE2e) failed += run(["node_modules/@playwright/test/cli.js", "test"]) === 0 ? 0 : 1;
process.exit(failed ? 1 : 0);
