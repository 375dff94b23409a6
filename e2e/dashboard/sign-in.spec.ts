import { expect, test } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { newOrgWithOwner } from "../support/fixtures";

test("an issuer signs in, sees the dashboard, and signs out", async ({ page }) => {
  const org = await newOrgWithOwner("Northwind Trading");
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations).toEqual([]);

  await page.getByLabel("Email").fill(org.email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText(/incorrect/);

  await page.getByLabel("Password").fill(org.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("Northwind Trading")).toBeVisible();
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === "fos_session");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Strict");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
});
