import { spawnSync } from "node:child_process";
import { ensureBuilt } from "./build-state";

// `npm run test:faults`: build if needed, then the fault-injection suite (test/faults/).
ensureBuilt();
const r = spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--config", "vitest.faults.config.ts", ...process.argv.slice(2)], {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
process.exit(r.status ?? 1);
