import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { newOrgWithOwner } from "../support/fixtures";
import { api, expectNoAxeViolations, expectNoHorizontalOverflow, registerObligation, signIn } from "../support/dashboard";

// The whole life of an obligation in the dashboard (docs/obligations.md, Lifecycle): correct, credit,
// cancel, reverse, dismiss, and a short payment closed with a bank fee, at desktop width and
// at 360 px, axe clean, with screenshots.

async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

for (const width of [1280, 360]) {
  test(`a clerk corrects, credits, cancels, reverses and dismisses (${width} px)`, async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 900 });
    const org = await newOrgWithOwner(`Lifecycle ${width}`);
    const typo = await registerObligation(org.api_key, { debtor: { name: "Initech" }, amount_minor: "1250000", currency: "EUR" });
    await signIn(page, org.email, org.password);

    // Correct: the amount had a typo (12,500.00 instead of 1,250.00).
    await page.goto(`/dashboard/obligations/${typo.invoice.id}`);
    await expect(page.getByText(/payment reference RF\d\d/)).toBeVisible();
    const corrections = page.getByRole("region", { name: "Credits and corrections" });
    await corrections.getByText("Correct the obligation").click();
    const amend = corrections.getByRole("form", { name: "Correct the obligation" });
    await amend.getByLabel("Correct amount (EUR)").fill("1250.00");
    await amend.getByRole("button", { name: "Save corrections" }).click();
    await expect(amend.getByText("Corrected.")).toBeVisible();
    await expect(page.locator("dl > div").filter({ has: page.getByText("Amount", { exact: true }) })).toContainText("€1,250.00");
    await expectNoAxeViolations(page, "obligation after amend");
    await shot(page, testInfo, `obligation-corrected-${width}`);

    // Credit part of it (a credit note of 250.00).
    const credit = corrections.getByRole("form", { name: "Credit part of the obligation" });
    await credit.getByLabel("Credit for").selectOption("credit_note");
    await credit.getByLabel("Amount to credit (EUR)").fill("250");
    await credit.getByLabel("Reason for the credit").fill("Credit note CN-7 for damaged goods");
    await credit.getByRole("button", { name: "Credit", exact: true }).click();
    await expect(credit.getByText("Credited: the amount counts as settled.")).toBeVisible();
    await expect(corrections.getByRole("list", { name: "Credits" })).toContainText("Credit note CN-7");
    await expect(page.getByText("Partially reconciled", { exact: true })).toBeVisible();

    // Reverse the credit (the reason is asked).
    await corrections.getByRole("button", { name: /Reverse the credit note/ }).click();
    const dialog = page.getByRole("dialog", { name: "Reverse the credit note of €250.00?" });
    await dialog.getByLabel("Reason for the reversal").fill("Goods were fine after all");
    await dialog.getByRole("button", { name: "Reverse" }).click();
    await expect(corrections.getByRole("list", { name: "Credits" })).toContainText("reversed");
    await expect(page.getByText("Captured", { exact: true })).toBeVisible();
    await expectNoAxeViolations(page, "obligation after a reversed credit");

    // Cancel: the dialog says what it does.
    await corrections.getByRole("button", { name: "Cancel obligation" }).click();
    const cancel = page.getByRole("dialog", { name: "Cancel this obligation?" });
    await expect(cancel).toContainText("credits the whole outstanding €1,250.00 as a cancellation");
    await expectNoAxeViolations(page, "cancel dialog");
    await shot(page, testInfo, `cancel-dialog-${width}`);
    await cancel.getByLabel("Reason for the cancellation").fill("Registered twice");
    await cancel.getByRole("button", { name: "Cancel obligation" }).click();
    await expect(page.getByText("Cancelled", { exact: true }).first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Audit trail", exact: true })).toContainText("Credit reversed");
    await expectNoHorizontalOverflow(page);
    await shot(page, testInfo, `obligation-cancelled-${width}`);
    await page.goto("/dashboard/obligations");
    // the list is a table at desktop width and cards on a phone: the one shown
    await expect(page.locator(':text-is("Cancelled"):visible').first()).toBeVisible();

    // A short payment (€12.00 of bank charges) accepted with the rest as a bank fee.
    const short = await registerObligation(org.api_key, { debtor: { name: "Globex" }, amount_minor: "100000", currency: "EUR" });
    const detail = await api<{ payment_reference: string }>(org.api_key, "GET", `/obligations/${short.invoice.id}`);
    const pay = await api<{ id: string }>(org.api_key, "POST", "/payments", {
      amount_minor: "98800",
      currency: "EUR",
      received_on: "2026-11-20",
      payer_name: "Globex",
      reference: detail.body.payment_reference,
    });
    expect(pay.status).toBe(201);
    // A bank line that is not a receivable.
    const fee = await api<{ id: string }>(org.api_key, "POST", "/payments", {
      amount_minor: "1500",
      currency: "EUR",
      received_on: "2026-11-21",
      payer_name: "Bank",
      reference: "ACCOUNT CHARGES NOVEMBER",
    });
    await page.goto("/dashboard/reconciliation?show=all");
    const row = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /From Globex/ }) });
    await expect(row.getByLabel("The payment is €12.00 short. The rest is:")).toBeVisible();
    await expectNoAxeViolations(page, "reconciliation with a short payment");
    await shot(page, testInfo, `reconciliation-short-${width}`);
    await row.getByLabel("The payment is €12.00 short. The rest is:").selectOption("bank_fee");
    await row.getByRole("button", { name: /^Accept/ }).click();
    await expect(page.getByRole("heading", { name: /From Globex/ })).toHaveCount(0);
    const globex = await api<{ status: string; allocated_minor: string; settled: { by_credits_minor: string } }>(
      org.api_key,
      "GET",
      `/obligations/${short.invoice.id}`,
    );
    expect(globex.body).toMatchObject({ status: "RECONCILED", allocated_minor: "100000", settled: { by_credits_minor: "1200" } });

    // Dismiss the bank charges from the list.
    const feeRow = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /From Bank/ }) });
    await feeRow.getByRole("button", { name: /Not a receivable/ }).click();
    const dismiss = page.getByRole("dialog", { name: "Set this payment aside?" });
    await dismiss.getByLabel("What is it?").selectOption("bank_fee");
    await dismiss.getByRole("button", { name: "Set aside" }).click();
    await expect(page.getByRole("heading", { name: /From Bank/ })).toHaveCount(0);

    // The payment page: restore it; then reverse the Globex allocation there.
    await page.goto(`/dashboard/payments/${fee.body.id}`);
    await expect(page.getByRole("region", { name: "Set aside" })).toContainText("Bank charges");
    await expectNoAxeViolations(page, "dismissed payment");
    await shot(page, testInfo, `payment-dismissed-${width}`);
    await page.getByRole("button", { name: "Restore" }).click();
    await expect(page.getByText("Restored: the payment is back among those to allocate.")).toBeVisible();
    await expect(page.getByRole("button", { name: /Not a receivable/ })).toBeVisible();

    await page.goto(`/dashboard/payments/${pay.body.id}`);
    await page.getByRole("button", { name: /Reverse the allocation/ }).click();
    const rev = page.getByRole("dialog", { name: /Reverse the allocation of €988.00/ });
    await rev.getByLabel("Reason for the reversal").fill("Belongs to another invoice");
    await rev.getByRole("button", { name: "Reverse" }).click();
    await expect(page.getByRole("region", { name: "Allocations", exact: true })).toContainText("reversed: Belongs to another invoice");
    await expectNoAxeViolations(page, "payment with a reversed allocation");
    await expectNoHorizontalOverflow(page);
    await shot(page, testInfo, `payment-reversed-${width}`);
    const after = await api<{ status: string; allocated_minor: string }>(org.api_key, "GET", `/obligations/${short.invoice.id}`);
    expect(after.body).toMatchObject({ status: "PARTIALLY_RECONCILED", allocated_minor: "1200" });
  });
}
