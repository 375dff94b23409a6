import type { TestProject } from "vitest/node";
import { createTestDatabase, startServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    backend: "pglite" | "postgres";
    logFile: string;
  }
}

// One server for the run (tests isolate themselves by creating their own organizations).
// TEST_DATABASE_URL (a PostgreSQL admin URL) selects real PostgreSQL; else PGlite.
export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const databaseUrl = adminUrl ? await createTestDatabase(adminUrl) : undefined;
  const server = await startServer({ databaseUrl, label: "vitest" });
  project.provide("baseUrl", server.baseUrl);
  project.provide("databaseUrl", server.databaseUrl);
  project.provide("backend", adminUrl ? "postgres" : "pglite");
  project.provide("logFile", server.logFile);
  return async () => {
    await server.stop();
  };
}
