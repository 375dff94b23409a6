import { defineConfig } from "@playwright/test";

// Browser tests in Debian's Chromium (npx playwright install cannot download here).
// e2e/global-setup.ts starts the real server (PGlite, or PostgreSQL with TEST_DATABASE_URL).
export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/support/global-setup.ts",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  // In CI a test that fails then passes is reported as "flaky" (see the summary line) rather than
  // failing the run; locally every failure stops you.
  retries: process.env.CI ? 1 : 0,
  outputDir: "test-results/e2e",
  reporter: [["list"], ["html", { outputFolder: "playwright-report", open: "never" }], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [
    { name: "dashboard", testMatch: /e2e\/dashboard\/.*\.spec\.ts/ },
    { name: "recipient", testMatch: /e2e\/recipient\/.*\.spec\.ts/ },
    { name: "docs", testMatch: /e2e\/docs\/.*\.spec\.ts/ },
  ],
});
