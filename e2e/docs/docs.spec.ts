import { expect, test } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";

test("the API reference page renders the OpenAPI document and is accessible", async ({ page }) => {
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Financial Obligations Service API");
  await expect(page.getByText("API reference · version 0.2.2")).toBeVisible();
  await expect(page.locator("#signIn")).toContainText("/api/v1/session");
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations).toEqual([]);
});
