// The organization a benchmark works in: created through the app's own domain function on the
// benchmark's database (the server started on it has applied the migrations), with the owner
// and the API key the scenarios use. The app's database handle is closed again, so the
// script's process holds no connection of its own.
import { randomUUID } from "node:crypto";
import { TEST_APP_SECRET } from "../../test/support/server";

export type BenchOrganization = { apiKey: string; organizationId: string };

export async function benchOrganization(databaseUrl: string, name = "Bench Org"): Promise<BenchOrganization> {
  process.env.DATABASE_URL = databaseUrl;
  process.env.APP_SECRET = TEST_APP_SECRET;
  process.env.LOG_LEVEL = "silent";
  const { createOrganization } = await import("@/lib/organizations/create-organization");
  const { disconnectDb } = await import("@/lib/db/client");
  const org = await createOrganization({ name, ownerEmail: `bench-${randomUUID()}@example.test`, ownerPassword: "bench-password-123" });
  await disconnectDb();
  return { apiKey: org.api_key, organizationId: org.organization_id };
}
