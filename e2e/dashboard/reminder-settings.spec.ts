import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { newOrgWithOwner } from "../support/fixtures";
import { api, checkBothSizes, signIn } from "../support/dashboard";

// The Reminders settings page as an owner uses it: the default in words, four steps, the
// email channel, a sender and interest chosen with the keyboard (the words follow), a bad
// day count explained in words, saved and stored.

test("an owner sets a reminder policy of four steps by email with late-payment interest", async ({ page }) => {
  test.setTimeout(180_000);
  const org = await newOrgWithOwner("Reminder Works BV");
  await signIn(page, org.email, org.password);
  await page.goto("/dashboard/settings/reminders");
  await expect(page.getByRole("heading", { name: "Reminders", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "Reminder policy" });
  await expect(form).toContainText("No reminders go out.");
  await expect(page.getByText("Not changed yet: the default below applies.")).toBeVisible();
  await checkBothSizes(page, "reminder-settings", "default");

  await form.getByRole("checkbox", { name: "Send reminders" }).check();
  await form.getByLabel("Step 1: days").fill("-3");
  for (const [n, days, tone] of [
    [2, "1", "friendly"],
    [3, "7", "firm"],
    [4, "30", "final"],
  ] as const) {
    await form.getByRole("button", { name: "Add a step" }).click();
    await form.getByLabel(`Step ${n}: days`).fill(days);
    await form.getByLabel(`Step ${n}: tone`).selectOption(tone);
  }
  await form.getByRole("radio", { name: "By email from this service" }).check();
  await form.getByLabel("Sender name").fill("Reminder Works Receivables");
  await form.getByLabel("Replies go to").fill("ar@reminder-works.example");
  await form.getByRole("checkbox", { name: /Mention late-payment interest/ }).check();
  await form.getByLabel("Reference rate (%)").fill("2.15");
  await form.getByLabel("Margin (%)").fill("8");
  await form.getByLabel("Fixed compensation").fill("40.00");
  await expect(form).toContainText("A friendly reminder 3 days before the due date.");
  await expect(form).toContainText("A final reminder 30 days after the due date.");
  await expect(form).toContainText("late-payment interest at 10.15 % a year");

  await form.getByLabel("Step 4: days").fill("seven");
  await expect(form.getByText("Enter a whole number of days")).toBeVisible();
  await expect(form.getByRole("button", { name: "Save policy" })).toBeDisabled();
  await form.getByLabel("Step 4: days").fill("30");
  // Enabled again once the form has re-checked the steps (a disabled button takes no focus).
  await expect(form.getByRole("button", { name: "Save policy" })).toBeEnabled();
  await form.getByRole("button", { name: "Save policy" }).focus();
  await page.keyboard.press("Enter");
  // the save refreshes the page's data (the time of the change shows); the confirmation stays
  await expect(page.getByText(/^Last changed /)).toBeVisible();
  await expect(form.getByRole("status")).toContainText("Saved");
  const stored = await api<Record<string, unknown>>(org.api_key, "GET", "/reminder-policy");
  expect(stored.body).toMatchObject({
    enabled: true,
    steps: [
      { offset_days: -3, tone: "friendly" },
      { offset_days: 1, tone: "friendly" },
      { offset_days: 7, tone: "firm" },
      { offset_days: 30, tone: "final" },
    ],
    channel: "email",
    sender_name: "Reminder Works Receivables",
    reply_to: "ar@reminder-works.example",
    late_payment_interest: { enabled: true, reference_rate_basis_points: 215, margin_basis_points: 800, fixed_compensation_minor: "4000" },
  });
  await checkBothSizes(page, "reminder-settings", "saved");

  // The overview counts what goes out in the next 7 days: a deadline 3 days ahead reaches
  // the −3 step today and the +1 step in 4 days.
  const deadline = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const r = await api(org.api_key, "POST", "/obligations", {
    obligation_type: "invoice",
    external_reference: { namespace: "e2e", id: randomUUID() },
    debtor: { name: "Northwind Traders Ltd", email: "ap@northwind.example" },
    amount_minor: "48000",
    currency: "EUR",
    deadline,
    business_context: { invoice_number: "INV-REM-1" },
  });
  expect(r.status).toBe(201);
  await page.goto("/dashboard");
  await expect(page.getByTestId("reminders-this-week")).toContainText("Reminders this week: 2 go out in the next 7 days.");
});
