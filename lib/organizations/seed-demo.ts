import { randomToken } from "@/lib/crypto";
import { db } from "@/lib/db/client";
import { createOrganization } from "@/lib/organizations/create-organization";
import { seedDemoObligations } from "@/lib/organizations/seed-demo-obligations";

export const DEMO_EMAIL = "demo@example.com";

// On an empty database: a demo organization, its owner and an API key, with sample data.
// The owner's password is random and shown once, like the API key: a fixed one would be a
// known sign-in on every server started with the default DEMO_SEED=on against an empty
// production database.
export async function seedDemo(): Promise<{ email: string; password: string; apiKey: string } | undefined> {
  if ((await db().organization.count()) > 0) return undefined;
  const password = randomToken(12);
  const org = await createOrganization({ name: "Demo Company Ltd", ownerEmail: DEMO_EMAIL, ownerPassword: password, ownerName: "Demo Owner" });
  await seedDemoObligations(org.organization_id, org.user_id);
  return { email: DEMO_EMAIL, password, apiKey: org.api_key };
}
