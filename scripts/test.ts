import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { ensureBuilt } from "./build-state";

// `npm test`: build if needed, then the integration suite (vitest, real HTTP against the
// real server) and the browser suite (Playwright in Debian's Chromium).
// TEST_DATABASE_URL=postgres://... runs both against real PostgreSQL instead of PGlite.
ensureBuilt();

const run = (args: string[]) => spawnSync(process.execPath, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } }).status ?? 1;

type Count = { passed: number; failed: number; skipped: number; flaky: number };
const total: Count = { passed: 0, failed: 0, skipped: 0, flaky: 0 };
const readJson = (file: string): any => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined);

const only = process.env.TEST_ONLY; // "integration" | "e2e"
let failedSuites = 0;
if (only !== "e2e") {
  rmSync("test-results/vitest.json", { force: true });
  failedSuites += run(["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)]) === 0 ? 0 : 1;
  const r = readJson("test-results/vitest.json");
  if (r) {
    total.passed += r.numPassedTests;
    total.failed += r.numFailedTests;
    total.skipped += r.numPendingTests + r.numTodoTests;
  }
}
const hasE2e = existsSync("e2e") && readdirSync("e2e", { recursive: true }).some((f) => String(f).endsWith(".spec.ts"));
if (only !== "integration" && hasE2e) {
  rmSync("test-results/playwright.json", { force: true });
  failedSuites += run(["node_modules/@playwright/test/cli.js", "test"]) === 0 ? 0 : 1;
  const s = readJson("test-results/playwright.json")?.stats;
  if (s) {
    total.passed += s.expected + s.flaky;
    total.failed += s.unexpected;
    total.skipped += s.skipped;
    total.flaky += s.flaky;
  }
}
if (failedSuites && total.failed === 0) total.failed = failedSuites; // a suite that failed to start
if (total.flaky) console.log(`\n${total.flaky} browser test(s) passed only on retry (flaky): see the report above`);
console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(failedSuites ? 1 : 0);
