import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { newOrgWithOwner } from "../support/fixtures";
import { api, expectNoAxeViolations, registerObligation, signIn } from "../support/dashboard";

const addDays = (n: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

test("an owner registers an obligation through the form and works it on the detail page", async ({ page, context }) => {
  test.setTimeout(180_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const org = await newOrgWithOwner("Vandelay Industries");
  await signIn(page, org.email, org.password);

  // Overview of an empty organization
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Owed to you", exact: true })).toContainText("Nothing outstanding");
  await expectNoAxeViolations(page, "overview (empty)");

  // The form: an empty submission lists what is missing
  await page.getByRole("link", { name: "New obligation" }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/obligations\/new$/);
  await expectNoAxeViolations(page, "new obligation form");
  await page.getByRole("button", { name: "Register obligation" }).click();
  const summary = page.getByRole("alert").filter({ hasText: "Please correct" });
  await expect(summary).toBeVisible();
  await expect(summary).toContainText("Counterparty name");
  await expect(summary).toContainText("Amount: Enter an amount.");
  await expect(page.getByLabel("Debtor name")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page, "new obligation form with errors");

  // A decimal comma is refused with a hint, not silently misread
  await page.getByRole("textbox", { name: "Amount", exact: true }).fill("1250,50");
  await page.getByRole("button", { name: "Register obligation" }).click();
  await expect(page.getByText("Use a dot as the decimal separator", { exact: false }).first()).toBeVisible();

  await page.getByLabel("Debtor name").fill("Globex Corporation");
  await page.getByLabel("Debtor email").fill("ap@globex.example");
  await page.getByRole("textbox", { name: "Amount", exact: true }).fill("1,250.50");
  await page.getByLabel("Currency").selectOption("EUR");
  await expect(page.getByText("= €1,250.50")).toBeVisible();
  await page.getByRole("textbox", { name: "Deadline" }).fill(addDays(45));
  await page.getByLabel("Invoice or document number").fill("INV-E2E-0001");
  await page.getByRole("textbox", { name: "Description" }).fill("Installation and commissioning");

  await page.getByRole("button", { name: "Add condition" }).click();
  await page.getByLabel("Condition 1").fill("Site acceptance");
  await page.getByLabel("Condition 1").blur();
  await expect(page.getByLabel("Key")).toHaveValue("site-acceptance");

  await page.getByRole("button", { name: "Add payment term" }).click();
  await page.getByLabel("Term label").first().fill("Deposit");
  await page.getByLabel("Percent").first().fill("30");
  await page.getByLabel("Due", { exact: true }).first().selectOption("immediately");
  await page.getByRole("button", { name: "Add payment term" }).click();
  await page.getByLabel("Term label").nth(1).fill("Balance");
  await page.getByLabel("Percent").nth(1).fill("60");
  await expect(page.getByText(/Terms total €1,125\.45 — must equal €1,250\.50/)).toBeVisible();
  await page.getByLabel("Percent").nth(1).fill("70");
  await page.getByLabel("Becomes payable").nth(1).selectOption("condition_satisfied");
  await page.getByRole("combobox", { name: "Condition", exact: true }).selectOption("site-acceptance");
  await page.getByLabel("Days after it becomes payable").nth(0).fill("30");
  await expect(page.getByText("Terms total €1,250.50 — matches the amount.")).toBeVisible();
  await expect(page.getByText("= €375.15")).toBeVisible();
  await expect(page.getByText("= €875.35")).toBeVisible();

  await page.getByRole("button", { name: "Register obligation" }).click();
  await expect(page).toHaveURL(/\/dashboard\/obligations\/[0-9a-f-]{36}$/);
  const obligationId = page.url().split("/").pop()!;

  // The hosted link is shown once, with a copy button
  const banner = page.getByRole("status").filter({ hasText: "Obligation registered." });
  await expect(banner).toBeVisible();
  const firstLink = await page.getByLabel("Link for the recipient").inputValue();
  expect(firstLink).toMatch(/\/r\/[0-9a-f-]{36}#[A-Za-z0-9_-]{40,}$/);
  await banner.getByRole("button", { name: "Copy link" }).click();
  await expect(banner.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstLink);
  await expectNoAxeViolations(page, "obligation detail (new)");

  // What was registered, in minor units, as the API sees it
  const detail = await page.request.get(`/api/v1/obligations/${obligationId}`);
  const o = (await detail.json()) as { amount_minor: string; currency: string; payment_terms: { amount_minor: string }[]; debtor: { name: string } };
  expect(o.amount_minor).toBe("125050");
  expect(o.currency).toBe("EUR");
  expect(o.payment_terms.map((t) => t.amount_minor)).toEqual(["37515", "87535"]);
  expect(o.debtor.name).toBe("Globex Corporation");

  // Seen in the list, newest first, and opened from there
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Obligations" }).click();
  const row = page.getByRole("row").filter({ hasText: "Globex Corporation" });
  await expect(row).toContainText("€1,250.50");
  await expect(row).toContainText("€0.00");
  await expect(row).toContainText("Captured");
  await expectNoAxeViolations(page, "obligations list");
  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/obligations/${obligationId}$`));
  await expect(page.getByRole("status").filter({ hasText: "Obligation registered." })).toHaveCount(0); // shown once only

  // Terms: the deposit is payable now, the balance waits on the condition
  const terms = page.getByRole("region", { name: "Payment terms", exact: true });
  await expect(terms.getByRole("listitem").filter({ hasText: "Deposit" })).toContainText("Due now");
  await expect(terms.getByRole("listitem").filter({ hasText: "Balance" })).toContainText("Not yet payable");

  // Copy the link again later (fetched on demand)
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByText("Link copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstLink);

  // Mark sent
  await page.getByRole("button", { name: "Mark as sent" }).click();
  await expect(page.getByText("Marked as sent. Status: payment requested.")).toBeVisible();
  await expect(page.getByText("Payment requested", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Mark as sent" })).toHaveCount(0);

  // Post a message
  await page.getByLabel("New message to the recipient").fill("Thanks for the order. The deposit is due now.");
  await page.getByRole("button", { name: "Post message" }).click();
  const messages = page.getByRole("region", { name: "Messages", exact: true });
  await expect(messages.getByRole("listitem").filter({ hasText: "Thanks for the order. The deposit is due now." })).toBeVisible();
  await expect(page.getByLabel("New message to the recipient")).toHaveValue("");

  // Upload a document, then download it
  await page.getByLabel("File").setInputFiles({
    name: "acceptance-report.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n"),
  });
  await page.getByLabel("Kind").selectOption("payment_evidence");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("“acceptance-report.pdf” uploaded.")).toBeVisible();
  const docs = page.getByRole("region", { name: "Documents", exact: true });
  await expect(docs.getByRole("link", { name: "acceptance-report.pdf" })).toBeVisible();
  await expect(docs).toContainText("Payment evidence");
  const [download] = await Promise.all([page.waitForEvent("download"), docs.getByRole("link", { name: "acceptance-report.pdf" }).click()]);
  expect(download.suggestedFilename()).toBe("acceptance-report.pdf");

  // An active file type is refused with a clear message
  await page.getByLabel("File").setInputFiles({ name: "page.html", mimeType: "text/html", buffer: Buffer.from("<!doctype html><script>alert(1)</script>") });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("This file type is not accepted.", { exact: false })).toBeVisible();

  // Revoke the link
  await page.getByRole("button", { name: "Revoke link" }).click();
  await page.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(page.getByText("Revoked — the recipient can no longer open it.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy link" })).toHaveCount(0);
  expect((await page.request.get(`/api/v1/obligations/${obligationId}/payment-request`)).status()).toBe(410);

  // Reissue it: a new link, shown once
  await page.getByRole("button", { name: "Reissue link" }).click();
  const reissued = page.getByRole("status").filter({ hasText: "New link issued" });
  await expect(reissued).toBeVisible();
  const secondLink = await page.getByLabel("Link for the recipient").inputValue();
  expect(secondLink).toMatch(/\/r\/[0-9a-f-]{36}#/);
  expect(secondLink).not.toBe(firstLink);
  await expect(page.getByText("Active", { exact: true })).toBeVisible();

  // Satisfy the condition: the balance becomes payable
  const conditions = page.getByRole("region", { name: "Conditions", exact: true });
  await conditions.getByRole("button", { name: "Mark satisfied" }).click();
  await conditions.getByLabel("Evidence reference").fill("ACCEPT-77");
  await conditions.getByLabel("Source").fill("signed site report");
  await conditions.getByRole("button", { name: "Confirm satisfied" }).click();
  await expect(page.getByText("“Site acceptance” is satisfied; payable amounts were recalculated.")).toBeVisible();
  await expect(conditions.getByText("Satisfied", { exact: true })).toBeVisible();
  await expect(conditions).toContainText("evidence ACCEPT-77");
  await expect(terms.getByRole("listitem").filter({ hasText: "Balance" })).toContainText("Payable");
  const card = (name: string) => page.locator("dl > div").filter({ has: page.getByText(name, { exact: true }) });
  await expect(card("Payable now")).toContainText("€1,250.50");
  await expect(card("Due now")).toContainText("€375.15");

  // Expected payment date
  await page.getByLabel("Set the expected payment date").fill(addDays(20));
  await page.getByRole("button", { name: "Save date" }).click();
  await expect(page.getByText("Expected payment date saved.")).toBeVisible();

  // Delivery draft of the invoice: the email text with the (new) link; nothing is sent
  await page.getByRole("button", { name: "Preview email" }).click();
  await expect(page.getByLabel("Email text")).toHaveValue(new RegExp(`Hello Globex Corporation,[\\s\\S]*${secondLink.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  await expect(page.getByRole("region", { name: "Delivery email", exact: true })).toContainText("Globex Corporation <ap@globex.example>");

  // The audit trail tells who did what
  const audit = page.getByRole("region", { name: "Audit trail", exact: true });
  for (const what of [
    "Registered",
    "Marked as sent",
    "Message posted",
    "Document added",
    "Link revoked",
    "Link reissued",
    "Condition satisfied",
    "Expected payment date set",
  ]) {
    await expect(audit.getByText(what, { exact: true })).toBeVisible();
  }
  await expect(audit).toContainText("by Ada Owner");
  await expectNoAxeViolations(page, "obligation detail (worked)");

  // Overview now shows what is owed and the activity
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).click();
  await expect(page.getByRole("region", { name: "Owed to you", exact: true })).toContainText("€1,250.50");
  await expect(page.getByRole("region", { name: "Recent activity", exact: true })).toContainText("Expected payment date set");
  await expectNoAxeViolations(page, "overview");

  // neither link (nor its token) reached the server log, and the session cookie value neither
  const log = readFileSync(process.env.E2E_LOG_FILE!, "utf8");
  const session = (await context.cookies()).find((c) => c.name === "fos_session")!.value;
  for (const secret of [firstLink, secondLink, firstLink.split("#")[1], secondLink.split("#")[1], session]) {
    expect(log.includes(secret), "a secret is in the server log").toBe(false);
  }
});

test("a stale version is reported and the page refreshed instead of overwriting", async ({ page }) => {
  const org = await newOrgWithOwner("Kramerica");
  const reg = await registerObligation(org.api_key, { debtor: { name: "Pendant Publishing" } });
  await signIn(page, org.email, org.password);
  await page.goto(`/dashboard/obligations/${reg.invoice.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pendant Publishing");

  // someone else changes the obligation meanwhile (version 1 -> 2)
  const other = await api(org.api_key, "POST", `/obligations/${reg.invoice.id}/actions`, {
    action: "post_message",
    expected_version: 1,
    message: "From the ERP",
  });
  expect(other.status).toBe(200);

  await page.getByRole("button", { name: "Mark as sent" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "changed by someone else" })).toBeVisible();
  // the refreshed page shows the other change, and the retry works with the new version
  await expect(page.getByRole("region", { name: "Messages", exact: true })).toContainText("From the ERP");
  await page.getByRole("button", { name: "Mark as sent" }).click();
  await expect(page.getByText("Marked as sent. Status: payment requested.")).toBeVisible();
  const after = await api<{ status: string; version: number }>(org.api_key, "GET", `/obligations/${reg.invoice.id}`);
  expect(after.body.status).toBe("PAYMENT_REQUESTED");
  expect(after.body.version).toBe(3);
});

test("JPY amounts have no minor digits", async ({ page }) => {
  const org = await newOrgWithOwner("Tanaka Trading");
  await signIn(page, org.email, org.password);
  await page.goto("/dashboard/obligations/new");
  await page.getByLabel("Debtor name").fill("Sakura KK");
  await page.getByLabel("Currency").selectOption("JPY");
  await page.getByRole("textbox", { name: "Amount", exact: true }).fill("150000.5");
  await page.getByLabel("Invoice or document number").fill("JP-1");
  await page.getByRole("button", { name: "Register obligation" }).click();
  await expect(page.getByText("JPY amounts have no decimal places.").first()).toBeVisible();
  await page.getByRole("textbox", { name: "Amount", exact: true }).fill("150,000");
  await expect(page.getByText("= ¥150,000")).toBeVisible();
  await page.getByRole("button", { name: "Register obligation" }).click();
  await expect(page).toHaveURL(/\/dashboard\/obligations\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop()!;
  const o = await api<{ amount_minor: string; currency: string }>(org.api_key, "GET", `/obligations/${id}`);
  expect(o.body).toMatchObject({ amount_minor: "150000", currency: "JPY" });
  await expect(page.locator("dl > div").filter({ has: page.getByText("Amount", { exact: true }) })).toContainText("¥150,000");
});
