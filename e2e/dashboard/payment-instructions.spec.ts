import { expect as baseExpect, test } from "@playwright/test";
import { addUser, newOrgWithOwner } from "../support/fixtures";
import { expectNoAxeViolations, expectNoHorizontalOverflow, signIn } from "../support/dashboard";

// The machine running these is shared and loaded: give the page time, never a timed assertion.
const expect = baseExpect.configure({ timeout: 30_000 });

// Settings > Payment instructions: an owner adds EUR bank details (the IBAN checked by the
// API's schema in the browser first), edits and removes them; a member is told to ask.
test("an owner sets the payment instructions of a currency", async ({ page }, testInfo) => {
  test.setTimeout(180_000); // a shared, loaded machine: the flow has many server round trips
  const org = await newOrgWithOwner("Initech GmbH");
  await signIn(page, org.email, org.password);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Payment instructions" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment instructions");
  await expect(page.getByText("No payment instructions yet")).toBeVisible();
  await expectNoAxeViolations(page, "payment instructions (empty)");

  const form = page.getByRole("form", { name: "Payment instructions for EUR" });
  await form.getByLabel("Account holder").fill("Initech GmbH");
  await form.getByLabel("IBAN").fill("DE89 3704 0044 0532 0130 01"); // one digit off
  await form.getByLabel(/BIC/).fill("COBADEFF");
  await form.getByRole("button", { name: "Save EUR instructions" }).click();
  await expect(form.getByText("wrong check digits")).toBeVisible();
  await expect(form.getByLabel("IBAN")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page, "payment instructions (invalid IBAN)");

  await form.getByLabel("IBAN").fill("DE89 3704 0044 0532 0130 00");
  await form.getByLabel(/Note to payers/).fill("Quote the payment reference, please.");
  await form.getByRole("button", { name: "Save EUR instructions" }).click();
  await expect(page.getByRole("main").getByRole("status")).toContainText("Saved");
  await expect(page.getByTestId("pi-EUR")).toContainText("DE89 3704 0044 0532 0130 00");
  await page.setViewportSize({ width: 360, height: 780 });
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: testInfo.outputPath("payment-instructions-360.png"), fullPage: true });

  await page.getByRole("button", { name: "Remove EUR" }).click();
  await expect(page.getByText("No payment instructions yet")).toBeVisible();
});

test("a member cannot manage payment instructions", async ({ page }) => {
  const org = await newOrgWithOwner("Initrode Ltd");
  const member = await addUser(org.organization_id, "member");
  await signIn(page, member.email, member.password);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Payment instructions" })).toHaveCount(0);
  await page.goto("/dashboard/settings/payment-instructions");
  await expect(page.getByRole("main").getByRole("alert")).toContainText("cannot manage payment instructions");
});
