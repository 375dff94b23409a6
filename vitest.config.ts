import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "test/**/*.test.ts"],
    // The fault-injection suite runs on its own (`npm run test:faults`, vitest.faults.config.ts).
    exclude: ["test/faults/**", "**/node_modules/**"],
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup-env.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    reporters: ["default", ["json", { outputFile: "test-results/vitest.json" }]],
  },
});
