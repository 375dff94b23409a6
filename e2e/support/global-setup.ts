import { createTestDatabase, startServer, TEST_APP_SECRET } from "../../test/support/server";

// Starts one real server for the browser suite and hands its address to the workers.
export default async function globalSetup() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const databaseUrl = adminUrl ? await createTestDatabase(adminUrl) : undefined;
  const server = await startServer({ databaseUrl, label: "e2e" });
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_DATABASE_URL = server.databaseUrl;
  process.env.E2E_LOG_FILE = server.logFile;
  process.env.DATABASE_URL = server.databaseUrl;
  process.env.APP_SECRET = TEST_APP_SECRET;
  return async () => {
    await server.stop();
  };
}
