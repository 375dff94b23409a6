import { expect, test } from "@playwright/test";
import { newOrgWithOwner } from "../support/fixtures";
import { api, expectNoAxeViolations, registerObligation, signIn } from "../support/dashboard";

// A detail holds the latest 100 messages and audit entries (docs/security.md, "Bounds"): the
// dashboard and the payer's page load the earlier ones on request.
test("earlier messages and events load on request, on the dashboard and on the payer's page", async ({ page }) => {
  const org = await newOrgWithOwner("Long Thread Ltd");
  const reg = await registerObligation(org.api_key);
  const id = reg.invoice.id;
  let version = reg.invoice.version;
  for (let i = 0; i < 101; i++) {
    const r = await api<{ invoice: { version: number } }>(org.api_key, "POST", `/obligations/${id}/actions`, {
      action: "post_message",
      expected_version: version,
      message: `Thread message ${i}`,
    });
    expect(r.status).toBe(200);
    version = r.body.invoice.version;
  }

  await signIn(page, org.email, org.password);
  await page.goto(`/dashboard/obligations/${id}`);
  await expect(page.getByText("Showing the latest 100 of 101 messages.")).toBeVisible();
  await expect(page.getByText("Thread message 0", { exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Show earlier messages" }).click();
  await expect(page.getByText("Thread message 0", { exact: false })).toBeVisible();
  await expect(page.getByText("Showing the latest 101 of 101 messages.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Show earlier messages" })).toHaveCount(0);

  await expect(page.getByText("Showing the latest 100 of 102 events.")).toBeVisible();
  await page.getByRole("button", { name: "Show earlier events" }).click();
  await expect(page.getByRole("list", { name: "Earlier events" }).getByText("Registered")).toBeVisible();
  await expectNoAxeViolations(page, "obligation with a long thread");

  await page.goto(reg.payment_request.hosted_url);
  await expect(page.getByText("Thread message 100")).toBeVisible();
  await expect(page.getByText("Thread message 0", { exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Show earlier messages" }).click();
  await expect(page.getByText("Thread message 0", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Show earlier messages" })).toHaveCount(0);
});
