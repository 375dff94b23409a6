import path from "node:path";
import { defineConfig } from "vitest/config";

// `npm run test:faults`: fault injection against real servers on a PostgreSQL the tests
// start themselves (kill -9 of the server, PostgreSQL restarted, webhook receivers down or
// hanging). Sequential: the faults must not overlap.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/faults/**/*.test.ts"],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
  },
});
