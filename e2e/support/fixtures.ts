import { randomUUID } from "node:crypto";
import { createOrganization, createUser } from "../../lib/organizations/create-organization";
import type { Role } from "../../lib/auth/permissions";

export const E2E_PASSWORD = "e2e-password-12345";

// Fixtures are created directly in the server's database (the same domain code the admin
// CLI uses); everything under test goes through the browser.
export async function newOrgWithOwner(name = "Acme Supplies Ltd") {
  const email = `owner-${randomUUID()}@example.test`;
  const r = await createOrganization({ name, ownerEmail: email, ownerPassword: E2E_PASSWORD, ownerName: "Ada Owner" });
  return { ...r, email, password: E2E_PASSWORD };
}

export async function addUser(organizationId: string, role: Role) {
  const email = `${role}-${randomUUID()}@example.test`;
  await createUser({ organizationId, email, password: E2E_PASSWORD, role });
  return { email, password: E2E_PASSWORD };
}

// A session cookie of the member (POST /session on `base`, the test server unless given), for
// the session-only endpoints called outside the browser.
export async function sessionCookie(email: string, password: string, base = process.env.E2E_BASE_URL as string): Promise<string> {
  const res = await fetch(`${base}/api/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`POST /session: ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
