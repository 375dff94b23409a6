import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { newOrgWithOwner } from "../support/fixtures";
import { baseUrl, expectNoAxeViolations, expectNoHorizontalOverflow, signIn } from "../support/dashboard";

// Identity in the browser (docs/administration.md): an owner invites, the invitee opens the
// link and sets their own password, a second organization invites the same person, who
// accepts with that password and switches between the two; pending invitations and reset
// links. Screenshots at desktop width and at 360 px.
async function shots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `test-results/e2e/identity-${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 360, height: 800 });
  await page.screenshot({ path: `test-results/e2e/identity-${name}-360.png`, fullPage: true });
  await expectNoHorizontalOverflow(page);
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function inviteFromSettings(page: Page, email: string, role: string): Promise<string> {
  await page.goto("/dashboard/settings/members");
  const form = page.getByRole("form", { name: "Invite a member" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Role").selectOption(role);
  await form.getByRole("button", { name: "Invite member" }).click();
  const link = page.getByLabel(new RegExp(`^${email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is invited as`));
  await expect(link).toHaveValue(/\/invite\/[0-9a-f-]{36}#/);
  return link.inputValue();
}

test("invite, accept with an own password, join a second organization and switch", async ({ page, browser }) => {
  test.setTimeout(420_000);
  const [a, b] = await Promise.all([newOrgWithOwner("Alpha Trading Ltd"), newOrgWithOwner("Beta Logistics GmbH")]);
  const person = `dana-${randomUUID()}@example.test`;

  // Owner of A invites; the link is shown once with a copy button; pending invitation listed
  await signIn(page, a.email, a.password);
  const url = await inviteFromSettings(page, person, "admin");
  await expect(page.getByRole("button", { name: "Copy link" })).toBeVisible();
  const pending = page.getByRole("region", { name: "Pending invitations" });
  await expect(pending).toContainText(person);
  await expectNoAxeViolations(page, "members with an invitation");
  await shots(page, "members-invited");

  // The invitee's page: a too-short password is refused in words, then accepted
  const invitee = await browser.newContext({ baseURL: baseUrl() });
  const iPage = await invitee.newPage();
  await iPage.goto(url);
  await expect(iPage.getByRole("heading", { level: 1, name: "Accept your invitation" })).toBeVisible();
  await expect(iPage).not.toHaveURL(/#/); // the token leaves the address bar
  await expectNoAxeViolations(iPage, "invitation");
  await shots(iPage, "invite-page");
  await iPage.getByLabel("Password", { exact: true }).fill("too-short");
  await iPage.getByRole("button", { name: "Accept invitation" }).click();
  await expect(iPage.getByRole("alert").filter({ hasText: "Choose a password of at least 12 characters." })).toBeVisible();
  await iPage.getByLabel("Password", { exact: true }).fill("dana-own-password-1");
  await iPage.getByRole("button", { name: "Accept invitation" }).click();
  await expect(iPage).toHaveURL(/\/dashboard$/, { timeout: 45_000 });
  await expect(iPage.locator("header")).toContainText("Alpha Trading Ltd");
  await expect(iPage.locator("header")).toContainText("admin");

  // The used link now says so in words
  const again = await browser.newContext({ baseURL: baseUrl() });
  const aPage = await again.newPage();
  await aPage.goto(url);
  await aPage.getByLabel("Password", { exact: true }).fill("dana-own-password-1");
  await aPage.getByRole("button", { name: "Accept invitation" }).click();
  await expect(aPage.getByText("This link has expired, was already used or was withdrawn.")).toBeVisible();
  await again.close();

  // B invites the same person: a password of B's choosing does not work, the person's own does
  const ownerB = await browser.newContext({ baseURL: baseUrl() });
  const bPage = await ownerB.newPage();
  await signIn(bPage, b.email, b.password);
  const urlB = await inviteFromSettings(bPage, person, "viewer");
  const second = await browser.newContext({ baseURL: baseUrl() });
  const sPage = await second.newPage();
  await sPage.goto(urlB);
  await sPage.getByLabel("Password", { exact: true }).fill("b-would-like-this-one");
  await sPage.getByRole("button", { name: "Accept invitation" }).click();
  await expect(sPage.getByText("An account with this email address exists already")).toBeVisible();
  await sPage.getByLabel("Password", { exact: true }).fill("dana-own-password-1");
  await sPage.getByRole("button", { name: "Accept invitation" }).click();
  await expect(sPage).toHaveURL(/\/dashboard$/, { timeout: 45_000 });
  await second.close();

  // Sign in (lands where used last: B) and switch to A in the frame
  await invitee.clearCookies();
  await signIn(iPage, person, "dana-own-password-1");
  const switcher = iPage.getByRole("form", { name: "Switch organization" });
  await expect(switcher.getByLabel("Organization")).toHaveValue(b.organization_id);
  await expectNoAxeViolations(iPage, "dashboard with two organizations");
  await shots(iPage, "switcher");
  await switcher.getByLabel("Organization").selectOption(a.organization_id);
  await switcher.getByRole("button", { name: "Switch organization" }).click();
  await expect(iPage.getByRole("form", { name: "Switch organization" }).getByLabel("Organization")).toHaveValue(a.organization_id);
  await expect(iPage.locator("header")).toContainText("admin");
  await invitee.close();

  // B: a pending invitation gets a new link and is withdrawn; no reset link for a shared account
  const other = `erin-${randomUUID()}@example.test`;
  await inviteFromSettings(bPage, other, "member");
  const bPending = bPage.getByRole("region", { name: "Pending invitations" });
  await bPending.getByRole("button", { name: `New invitation link for ${other}` }).click();
  await expect(bPage.getByLabel(`New invitation link for ${other}`)).toHaveValue(/\/invite\//);
  await bPending.getByRole("button", { name: `Withdraw the invitation of ${other}` }).click();
  await bPage
    .getByRole("dialog", { name: `Withdraw the invitation of ${other}?` })
    .getByRole("button", { name: "Withdraw invitation" })
    .click();
  await expect(bPage.getByRole("region", { name: "Pending invitations" })).toHaveCount(0);
  const members = bPage.getByRole("region", { name: "Members", exact: true });
  await expect(members).toContainText(person);
  await expect(members.getByRole("button", { name: `Password reset link for ${person}` })).toHaveCount(0);
  await ownerB.close();
});

test("a reset link for an account only this organization holds; the person chooses the new password", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const org = await newOrgWithOwner("Gamma Services Ltd");
  const person = `finn-${randomUUID()}@example.test`;
  await signIn(page, org.email, org.password);
  const url = await inviteFromSettings(page, person, "member");
  const invitee = await browser.newContext({ baseURL: baseUrl() });
  const iPage = await invitee.newPage();
  await iPage.goto(url);
  await iPage.getByLabel("Password", { exact: true }).fill("finn-first-password");
  await iPage.getByRole("button", { name: "Accept invitation" }).click();
  await expect(iPage).toHaveURL(/\/dashboard$/, { timeout: 45_000 });

  await page.reload();
  await page.getByRole("button", { name: `Password reset link for ${person}` }).click();
  const field = page.getByLabel(`Password reset link for ${person}`);
  await expect(field).toHaveValue(/\/password-reset\/[0-9a-f-]{36}#/);
  const resetUrl = await field.inputValue();

  const fresh = await browser.newContext({ baseURL: baseUrl() });
  const rPage = await fresh.newPage();
  await rPage.goto(resetUrl);
  await expect(rPage.getByRole("heading", { level: 1, name: "Choose a new password" })).toBeVisible();
  await expectNoAxeViolations(rPage, "password reset");
  await shots(rPage, "reset-page");
  await rPage.getByLabel("New password", { exact: true }).fill("finn-second-password");
  await rPage.getByLabel("New password again").fill("finn-second-passwort");
  await rPage.getByRole("button", { name: "Set new password" }).click();
  await expect(rPage.getByText("The two passwords differ.")).toBeVisible();
  await rPage.getByLabel("New password again").fill("finn-second-password");
  await rPage.getByRole("button", { name: "Set new password" }).click();
  await expect(rPage.getByText("Your new password is set.")).toBeVisible();
  // every session of the account ended
  await iPage.goto("/dashboard");
  await expect(iPage).toHaveURL(/\/login$/);
  await signIn(iPage, person, "finn-second-password");
  await fresh.close();
  await invitee.close();
});
