import { db } from "@/lib/db";
import { createOrganization } from "@/lib/organizations/create-organization";
import { seedDemoObligations } from "@/lib/organizations/seed-demo-obligations";

export const DEMO_EMAIL = "demo@example.com";
export const DEMO_PASSWORD = "demo-password-123";

// On an empty database: a demo organization, its owner and an API key, with sample data.
export async function seedDemo(): Promise<{ email: string; password: string; apiKey: string } | undefined> {
  if ((await db().organization.count()) > 0) return undefined;
  const org = await createOrganization({ name: "Demo Company Ltd", ownerEmail: DEMO_EMAIL, ownerPassword: DEMO_PASSWORD, ownerName: "Demo Owner" });
  await seedDemoObligations(org.organization_id, org.user_id);
  return { email: DEMO_EMAIL, password: DEMO_PASSWORD, apiKey: org.api_key };
}
