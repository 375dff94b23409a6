import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { newOrgWithOwner } from "../support/fixtures";
import { api, checkBothSizes, signIn } from "../support/dashboard";

// A clerk finds a counterparty, reads its open items and totals, makes an account link
// (shown once), then revokes it; axe clean at desktop and 360 px.

test("counterparties: search, the counterparty page, an account link made once and revoked", async ({ page }) => {
  test.setTimeout(180_000);
  const org = await newOrgWithOwner("Counterparty Works GmbH");
  for (const [amount, deadline] of [
    ["48000", "2026-11-01"],
    ["12000", "2026-12-20"],
  ]) {
    const r = await api(org.api_key, "POST", "/obligations", {
      obligation_type: "invoice",
      external_reference: { namespace: "e2e", id: randomUUID() },
      debtor: { name: "Kaufhaus Becker KG", email: "buchhaltung@becker.example" },
      amount_minor: amount,
      currency: "EUR",
      deadline,
      business_context: { invoice_number: `INV-${randomUUID().slice(0, 6)}` },
    });
    expect(r.status).toBe(201);
  }
  await signIn(page, org.email, org.password);
  await page.goto("/dashboard");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Counterparties" }).click();
  await page.getByLabel("Name or email").fill("becker");
  await page.getByRole("button", { name: "Find" }).click();
  const list = page.getByRole("list", { name: "Counterparties" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list).toContainText("2 open");
  await checkBothSizes(page, "counterparties", "list");

  await list.getByRole("link", { name: "Kaufhaus Becker KG" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Kaufhaus Becker KG");
  await expect(page.getByRole("list", { name: "Open obligations" }).getByRole("listitem")).toHaveCount(2);
  const section = page.getByRole("region", { name: "Account link" });
  await expect(section).toContainText("No account link yet.");
  await section.getByRole("button", { name: "Make account link" }).click();
  const url = section.getByLabel("The account link");
  await expect(url).toHaveValue(/\/a\/[0-9a-f-]{36}#.+/);
  await expect(section.getByRole("button", { name: "Copy link" })).toBeVisible();
  await expect(section).toContainText("A link is live until");
  await checkBothSizes(page, "counterparties", "detail");

  await section.getByRole("button", { name: "Revoke link" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
  await expect(section).toContainText("The last link was revoked.");
  await expect(section.getByLabel("The account link")).toHaveCount(0);
});
