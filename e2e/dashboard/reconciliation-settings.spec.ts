import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { camt053 } from "../../test/support/statements";
import { newOrgWithOwner } from "../support/fixtures";
import { api, checkBothSizes, figureOf, importStatement, registerObligation, signIn } from "../support/dashboard";

// The reconciliation page's Settings section and figures as an owner uses them: the
// defaults in words, `confident` and a tolerance chosen with the keyboard (the words follow),
// saved; then a statement whose invoice number is written another way is allocated at
// import, and the "Last 30 days" panel counts it as touchless.

test("an owner sets confident allocation and a tolerance; the next import is touchless and counted", async ({ page }) => {
  test.setTimeout(300_000);
  const org = await newOrgWithOwner("Settings Works BV");
  const tag = randomUUID().slice(0, 4).toUpperCase();
  await registerObligation(org.api_key, {
    debtor: { name: "Northwind Traders Ltd", email: "ap@northwind.example" },
    amount_minor: "48000",
    deadline: "2026-11-25",
    business_context: { invoice_number: `INV-${tag}-0202` },
  });

  await signIn(page, org.email, org.password);
  await page.goto("/dashboard/reconciliation");
  const stats = page.getByRole("region", { name: "Last 30 days" });
  await expect(stats).toContainText("Imported");
  const settings = page.getByRole("region", { name: "Settings" });
  await expect(settings).toContainText("only when it carries the RF payment reference");
  await checkBothSizes(page, "reconciliation-settings", "defaults");

  // Keyboard: the second choice, the tolerance checkbox, then the fields.
  await settings.getByRole("radio", { name: /whole invoice number/ }).check();
  await expect(settings).toContainText("names one open obligation's invoice number or reference as a whole word");
  await settings.getByRole("checkbox", { name: "Accept short payments within a tolerance" }).check();
  await settings.getByLabel("Short by at most").fill("25.00");
  await settings.getByLabel("and at most (%)").fill("2");
  await settings.getByLabel("Settle the rest as").selectOption("bank_fee");
  await expect(settings).toContainText("short by at most 25.00 (in the payment's currency) and at most 2 % of what is owed");
  await settings.getByLabel("and at most (%)").fill("two");
  await expect(settings.getByText("Enter a percentage from 0 to 100")).toBeVisible();
  await expect(settings.getByRole("button", { name: "Save settings" })).toBeDisabled();
  await settings.getByLabel("and at most (%)").fill("2");
  await settings.getByRole("button", { name: "Save settings" }).focus();
  await page.keyboard.press("Enter");
  await expect(settings.getByRole("status")).toContainText("Saved");
  const stored = await api<{ auto_allocate: string; tolerance: { max_minor: string; max_basis_points: number; kind: string } }>(
    org.api_key,
    "GET",
    "/reconciliation-settings",
  );
  expect(stored.body).toMatchObject({ auto_allocate: "confident", tolerance: { max_minor: "2500", max_basis_points: 200, kind: "bank_fee" } });
  await checkBothSizes(page, "reconciliation-settings", "confident");

  // The invoice number without its leading zero and with other separators: allocated at import.
  const camt = camt053([{ amount: "480.00", name: "NORTHWIND TRADERS", ustrd: `Rechnung inv ${tag}/202` }]);
  const { figure } = await importStatement(page, { name: "touchless.xml", mimeType: "application/xml", buffer: Buffer.from(camt) });
  await expect(figure("Allocated automatically")).toHaveText("1");
  await page.goto("/dashboard/reconciliation");
  await expect(figureOf(stats, "Touchless")).toHaveText("100 % (1)");
  await checkBothSizes(page, "reconciliation-settings", "counted");

  // A payment short by 5.00, within the tolerance: its page preselects the bank fee and says
  // why; "Leave it open" is a decision the server keeps (nothing credited).
  const o2 = await api<{ obligation: { id: string } }>(org.api_key, "POST", "/obligations", {
    obligation_type: "invoice",
    external_reference: { namespace: "e2e", id: randomUUID() },
    debtor: { name: "Northwind Traders Ltd" },
    amount_minor: "30000",
    currency: "EUR",
    deadline: "2026-11-25",
    business_context: { invoice_number: `INV-${tag}-0303` },
  });
  const short = await api<{ id: string }>(org.api_key, "POST", "/payments", {
    amount_minor: "29500",
    currency: "EUR",
    received_on: "2026-11-20",
    payer_name: "Northwind Traders",
    reference: `INV-${tag}-0303`,
  });
  expect(short.status).toBe(201);
  await page.goto(`/dashboard/reconciliation/payments/${short.body.id}`);
  const rest = page.getByLabel("The payment is €5.00 short. The rest is:");
  await expect(rest).toHaveValue("bank_fee");
  await expect(page.getByText("Within your tolerance: credited as a bank fee unless you choose otherwise.")).toBeVisible();
  await rest.selectOption({ label: "Leave it open" });
  await page
    .getByRole("button", { name: /^Accept/ })
    .first()
    .click();
  await expect(page.getByRole("button", { name: /^Accept/ })).toHaveCount(0);
  const after = await api<{ status: string; allocated_minor: string; credits: unknown[] }>(org.api_key, "GET", `/obligations/${o2.body.obligation.id}`);
  expect(after.body).toMatchObject({ status: "PARTIALLY_RECONCILED", allocated_minor: "29500", credits: [] });
});
