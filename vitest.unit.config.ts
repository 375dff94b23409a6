import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit and property tests of pure modules (lib/**/*.test.ts) with no server: `npm run test:unit`.
// `npm test` runs them too, together with the integration suite (vitest.config.ts).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: { include: ["lib/**/*.test.ts"], testTimeout: 60_000 },
});
