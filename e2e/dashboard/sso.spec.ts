import { randomUUID } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { db } from "../../lib/db/client";
import { freePort, startServer, type TestServer } from "../../test/support/server";
import { addUser, newOrgWithOwner, sessionCookie } from "../support/fixtures";
import { expectNoAxeViolations } from "../support/dashboard";
import { startOidcProvider } from "../support/oidc";

// Single sign-on through a real OpenID Provider on loopback, the whole redirect flow in
// Chromium. A second app server shares the suite's database and is configured for the
// provider (the suite's own server has no single sign-on).
let app: TestServer;
let idp: { issuer: string; stop: () => Promise<void> };
let member: { email: string; organizationId: string };
const invitee = `invitee-${randomUUID()}@example.test`;
let owner: { email: string; password: string };

test.describe.configure({ timeout: 300_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const org = await newOrgWithOwner("SSO Trading Ltd");
  const m = await addUser(org.organization_id, "member");
  member = { email: m.email, organizationId: org.organization_id };
  owner = { email: org.email, password: org.password };
  const idpPort = await freePort();
  const clientSecret = `secret-${randomUUID()}`;
  app = await startServer({
    databaseUrl: process.env.E2E_DATABASE_URL,
    label: "sso",
    env: { OIDC_ISSUER: `http://127.0.0.1:${idpPort}`, OIDC_CLIENT_ID: "fos-app", OIDC_CLIENT_SECRET: clientSecret, OIDC_NAME: "Test IdP" },
  });
  idp = await startOidcProvider({
    port: idpPort,
    clientId: "fos-app",
    clientSecret,
    redirectUri: `${app.baseUrl}/api/auth/callback/oidc`,
    accounts: {
      member: { email: m.email.toUpperCase(), email_verified: true },
      unverified: { email: m.email, email_verified: false },
      stranger: { email: `stranger-${randomUUID()}@example.test`, email_verified: true },
      invitee: { email: invitee, email_verified: true },
    },
  });
});

test.afterAll(async () => {
  await idp?.stop();
  await app?.stop();
});

async function signInThroughProvider(browser: Browser, account: string, from?: { url: string; button: string }): Promise<Page> {
  const context = await browser.newContext({ baseURL: app.baseUrl });
  const page = await context.newPage();
  await page.goto(from?.url ?? "/login");
  await page.getByRole("button", { name: from?.button ?? "Sign in with Test IdP" }).click();
  await page.waitForURL((u) => u.origin === idp.issuer);
  await page.getByPlaceholder("Enter any login").fill(account);
  await page.getByPlaceholder("and password").fill("any-password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  return page;
}

test("a member signs in through the identity provider into a revocable database session", async ({ browser }) => {
  const page = await signInThroughProvider(browser, "member");
  await expect(page).toHaveURL(`${app.baseUrl}/dashboard`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  const sessions = await db().issuerSession.findMany({ where: { organizationId: member.organizationId, method: "identity_provider", revokedAt: null } });
  expect(sessions).toHaveLength(1);
  // No next-auth session cookie: the service's own session is the only one.
  const names = (await page.context().cookies()).map((c) => c.name);
  expect(names).toContain("fos_session");
  expect(names.filter((n) => n.includes("next-auth.session-token"))).toEqual([]);

  // An owner removes the member through the API: the session ends at once.
  const cookie = await sessionCookie(owner.email, owner.password, app.baseUrl);
  const members = await (await fetch(`${app.baseUrl}/api/v1/members`, { headers: { cookie } })).json();
  const row = members.items.find((x: { email: string }) => x.email === member.email);
  expect((await fetch(`${app.baseUrl}/api/v1/members/${row.id}`, { method: "DELETE", headers: { cookie } })).status).toBe(204);
  expect((await db().issuerSession.findFirstOrThrow({ where: { id: sessions[0].id } })).revokedAt).not.toBeNull();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
  // ...and a removed member cannot come back through the provider either.
  const again = await signInThroughProvider(browser, "member");
  await expect(again).toHaveURL(/\/login\?sso=not_a_member/);
});

test("an unverified email and an unknown email are refused with a clear message, no account created", async ({ browser }) => {
  const before = await db().user.count();
  const unverified = await signInThroughProvider(browser, "unverified");
  await expect(unverified).toHaveURL(/\/login\?sso=unverified/);
  await expect(unverified.getByRole("alert").filter({ hasText: "did not confirm that this email address is verified" })).toBeVisible();
  await expectNoAxeViolations(unverified, "login with a refusal");

  const stranger = await signInThroughProvider(browser, "stranger");
  await expect(stranger).toHaveURL(/\/login\?sso=not_a_member/);
  await expect(stranger.getByRole("alert").filter({ hasText: "No member of this service has that email address" })).toBeVisible();
  expect(await db().user.count()).toBe(before);
});

test("an invitation is accepted by single sign-on with the invited, verified email (no password is set)", async ({ browser }) => {
  const cookie = await sessionCookie(owner.email, owner.password, app.baseUrl);
  const invited = await fetch(`${app.baseUrl}/api/v1/members`, {
    method: "POST",
    headers: { cookie, "content-type": "application/json", "idempotency-key": randomUUID() },
    body: JSON.stringify({ email: invitee, role: "viewer" }),
  });
  expect(invited.status).toBe(201);
  const { member: m, invitation } = await invited.json();
  const url = new URL(invitation.url);
  const page = await signInThroughProvider(browser, "invitee", { url: `${url.pathname}${url.hash}`, button: "Accept with Test IdP" });
  await expect(page).toHaveURL(`${app.baseUrl}/dashboard`);
  await expect(page.locator("header")).toContainText("viewer");
  const row = await db().membership.findFirstOrThrow({ where: { id: m.id }, include: { user: true } });
  expect(row.status).toBe("active");
  expect(row.user.passwordHash).toBe("");
  // the link is used up: the same link through single sign-on again is refused in words
  const again = await signInThroughProvider(browser, "invitee", { url: `${url.pathname}${url.hash}`, button: "Accept with Test IdP" });
  await expect(again).toHaveURL(/\/login\?sso=invitation/);
  await expect(again.getByRole("alert").filter({ hasText: "did not accept the invitation" })).toBeVisible();
});
