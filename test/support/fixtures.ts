import { randomUUID } from "node:crypto";
import { Api, baseUrl } from "./api";
import { createOrganization, createOrganizationApiKey, createUser } from "@/lib/organizations/create-organization";
import type { Role, Scope } from "@/lib/auth/permissions";

export const TEST_PASSWORD = "correct-horse-battery-staple";

export type OrgFixture = {
  organizationId: string;
  userId: string;
  apiKey: string;
  email: string;
  api: Api; // authenticated with the all-scopes API key
};

// A fresh organization per test file keeps tests independent on one shared server.
export async function newOrg(name = "Test Org"): Promise<OrgFixture> {
  const email = `owner-${randomUUID()}@example.test`;
  const r = await createOrganization({ name, ownerEmail: email, ownerPassword: TEST_PASSWORD, ownerName: "Olive Owner" });
  return { organizationId: r.organization_id, userId: r.user_id, apiKey: r.api_key, email, api: new Api(baseUrl(), r.api_key) };
}

export async function apiKeyWith(org: OrgFixture, scopes: Scope[]): Promise<Api> {
  const { api_key } = await createOrganizationApiKey({ organizationId: org.organizationId, scopes });
  return new Api(baseUrl(), api_key);
}

export async function userWith(org: OrgFixture, role: Role): Promise<{ email: string; password: string; userId: string }> {
  const email = `${role}-${randomUUID()}@example.test`;
  const { user_id } = await createUser({ organizationId: org.organizationId, email, password: TEST_PASSWORD, role });
  return { email, password: TEST_PASSWORD, userId: user_id };
}

// Signs in over HTTP and returns a client carrying the session cookie.
export async function signedIn(email: string, password = TEST_PASSWORD): Promise<Api> {
  const api = new Api(baseUrl());
  const r = await api.post("/session", { email, password }, { idempotencyKey: null });
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${r.text}`);
  api.cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return api;
}
