import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { newOrgWithOwner } from "../support/fixtures";
import { baseUrl, expectNoAxeViolations, expectNoHorizontalOverflow } from "../support/dashboard";

// Password sign-in (argon2id) can take a while on a loaded machine.
async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 45_000 });
}

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/e2e/settings-${name}-360.png`, fullPage: true });

test("an owner manages API keys, members, their password and their sessions", async ({ page, browser }) => {
  test.setTimeout(420_000);
  const org = await newOrgWithOwner("Settings & Co");
  await page.setViewportSize({ width: 360, height: 800 });
  await signIn(page, org.email, org.password);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/dashboard\/settings\/account$/);

  // --- API keys: create (shown once, copy), use, revoke with confirmation -> 401
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  const form = page.getByRole("form", { name: "Create an API key" });
  await form.getByRole("button", { name: "Create API key" }).click();
  await expect(form.getByText("must not be empty")).toBeVisible();
  await form.getByLabel("Name").fill("Nightly export");
  await form.getByLabel("obligations:read").check();
  await form.getByRole("button", { name: "Create API key" }).click();
  const keyField = page.getByLabel("The new API key");
  await expect(keyField).toHaveValue(/^fos_/);
  const key = await keyField.inputValue();
  await expect(page.getByRole("button", { name: "Copy key" })).toBeVisible();
  const active = page.getByRole("region", { name: "Active keys" });
  await expect(active).toContainText("Nightly export");
  await expectNoAxeViolations(page, "API keys");
  await expectNoHorizontalOverflow(page);
  await shot(page, "api-keys");

  const call = () => fetch(`${baseUrl()}/api/v1/obligations`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
  expect(await call()).toBe(200);

  // Revoke: a modal dialog, Escape closes it, the key still works; then confirm.
  const revoke = active.getByRole("button", { name: "Revoke Nightly export" });
  await revoke.click();
  const dialog = page.getByRole("dialog", { name: "Revoke the API key “Nightly export”?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expectNoAxeViolations(page, "revoke dialog");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Revoke key" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(revoke).toBeFocused();
  expect(await call()).toBe(200);
  await revoke.click();
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByRole("region", { name: "Revoked keys" })).toContainText("Nightly export");
  expect(await call()).toBe(401);

  // --- Members: invite (the link shown once), the colleague accepts with their own password;
  // their session ends when removed
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Members" }).click();
  await expect(page.getByText("The only owner")).toBeVisible();
  const add = page.getByRole("form", { name: "Invite a member" });
  const email = `colleague-${randomUUID()}@example.test`;
  await add.getByLabel("Email").fill(email);
  await add.getByLabel("Name (optional)").fill("Cole League");
  await add.getByLabel("Role").selectOption("member");
  await add.getByRole("button", { name: "Invite member" }).click();
  const link = page.getByLabel(`${email} is invited as Member.`);
  await expect(link).toHaveValue(/\/invite\/[0-9a-f-]{36}#/);
  const url = await link.inputValue();
  await expect(page.getByRole("region", { name: "Pending invitations" })).toContainText(email);
  await expectNoAxeViolations(page, "members");
  await expectNoHorizontalOverflow(page);
  await shot(page, "members");

  const colleague = await browser.newContext({ baseURL: baseUrl() });
  const cPage = await colleague.newPage();
  await cPage.goto(url);
  await cPage.getByLabel("Password", { exact: true }).fill("colleague-password-1");
  await cPage.getByRole("button", { name: "Accept invitation" }).click();
  await expect(cPage).toHaveURL(/\/dashboard$/, { timeout: 45_000 });
  await page.reload();
  const list = page.getByRole("region", { name: "Members", exact: true });
  await expect(list).toContainText("Cole League");

  await list.getByLabel(`Role of ${email}`).selectOption("viewer");
  await list.getByRole("button", { name: `Save role of ${email}` }).click();
  await expect(list.getByText("Role changed to Viewer.")).toBeVisible();
  await cPage.reload();
  await expect(cPage.locator("header")).toContainText("viewer");

  await list.getByRole("button", { name: `Remove ${email}` }).click();
  const removeDialog = page.getByRole("dialog", { name: `Remove ${email}?` });
  await removeDialog.getByRole("button", { name: "Remove member" }).click();
  await expect(list).not.toContainText("Cole League");
  await cPage.goto("/dashboard/obligations");
  await expect(cPage).toHaveURL(/\/login$/);
  await colleague.close();

  // --- Own account: password change ends the other session; sign out everywhere else
  const other = await browser.newContext({ baseURL: baseUrl() });
  const oPage = await other.newPage();
  await signIn(oPage, org.email, org.password);
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Your account" }).click();
  const sessions = page.getByRole("region", { name: "Sessions" });
  await expect(sessions.getByText("This browser", { exact: true })).toBeVisible();
  await expect(sessions.getByRole("listitem")).toHaveCount(2);
  await expectNoAxeViolations(page, "account");
  await expectNoHorizontalOverflow(page);
  await shot(page, "account");

  const pw = page.getByRole("form", { name: "Change your password" });
  await pw.getByLabel("Current password").fill(org.password);
  await pw.getByLabel("New password", { exact: true }).fill("a-new-owner-password");
  await pw.getByLabel("Repeat the new password").fill("a-new-owner-password");
  await pw.getByRole("button", { name: "Change password" }).click();
  await expect(pw.getByRole("status")).toContainText("Password changed");
  await oPage.goto("/dashboard");
  await expect(oPage).toHaveURL(/\/login$/);
  await expect(sessions.getByRole("listitem")).toHaveCount(1);

  await signIn(oPage, org.email, "a-new-owner-password");
  await page.reload();
  await expect(sessions.getByRole("listitem")).toHaveCount(2);
  await sessions.getByRole("button", { name: "Sign out everywhere else" }).click();
  await page.getByRole("dialog", { name: "Sign out everywhere else?" }).getByRole("button", { name: "Sign out other sessions" }).click();
  await expect(sessions.getByText("No other sessions.")).toBeVisible();
  await oPage.goto("/dashboard");
  await expect(oPage).toHaveURL(/\/login$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
  await other.close();
});

test("a member sees their own account but no administration", async ({ page }) => {
  test.setTimeout(180_000);
  const org = await newOrgWithOwner("Plain Members Ltd");
  const { addUser } = await import("../support/fixtures");
  const m = await addUser(org.organization_id, "member");
  await signIn(page, m.email, m.password);
  await page.goto("/dashboard/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Settings" }).getByRole("link")).toHaveCount(1);
  await page.goto("/dashboard/settings/members");
  await expect(page.getByText("cannot manage the organization")).toBeVisible();
  await expectNoAxeViolations(page, "members (not allowed)");
});
