import { appendFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { newOrgWithOwner } from "../support/fixtures";
import { expectNoAxeViolations, expectNoHorizontalOverflow, openInbox, registerObligation } from "../support/dashboard";
import { dayOffset, expectAxeClean, phone } from "../support/recipient";

// A payer on a phone, in German, disputes one invoice and promises to pay another on the
// hosted page; staff see both in the inbox (unread count in the navigation, filter, mark
// read), resolve the dispute on the obligation page, and the payer sees the answer.
// Screenshots at desktop and 360 px; axe on every page.

test.describe.configure({ timeout: 240_000 });

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/e2e/disputes-${name}.png`, fullPage: true });
const remember = (...values: string[]) => appendFileSync(`${process.env.E2E_LOG_FILE!}.secrets`, values.map((v) => `${v}\n`).join(""));

test("a payer disputes one invoice and promises another; staff see both in the inbox and resolve the dispute", async ({ page, browser }) => {
  const org = await newOrgWithOwner("Acme Fit-outs GmbH");
  const disputed = await registerObligation(org.api_key, { business_context: { invoice_number: "RE-2026-0101" }, debtor: { name: "Initech GmbH" } });
  const promised = await registerObligation(org.api_key, { business_context: { invoice_number: "RE-2026-0102" }, debtor: { name: "Initech GmbH" } });
  for (const r of [disputed, promised]) remember(r.payment_request.hosted_url, new URL(r.payment_request.hosted_url).hash.slice(1));

  // ---- the payer, on a phone, in German
  const payer = await phone(browser);
  const p = payer.page;
  await p.goto(disputed.payment_request.hosted_url);
  const disputeCard = p.getByRole("region", { name: "Stimmt etwas mit dieser Rechnung nicht?" });
  await disputeCard.getByRole("button", { name: "Beanstandung senden" }).click();
  await expect(disputeCard.getByText("Wählen Sie aus, was nicht stimmt.")).toBeVisible();
  await expectAxeClean(p, "dispute form with errors");
  await disputeCard.getByRole("radio", { name: "Der Betrag ist falsch" }).check();
  await disputeCard.getByLabel("Erklären Sie es in wenigen Worten").fill("Vereinbart waren 900,00 €, nicht 990,00 €.");
  await disputeCard.getByLabel(/Strittiger Betrag/).fill("90.00");
  await disputeCard.getByRole("button", { name: "Beanstandung senden" }).click();
  await expect(p.getByRole("status").filter({ hasText: "Ihre Beanstandung wurde an Acme Fit-outs GmbH gesendet." })).toBeVisible();
  await expect(disputeCard.getByTestId("dispute-state")).toContainText("Der Betrag ist falsch");
  await expect(disputeCard.getByRole("button", { name: "Beanstandung senden" })).toHaveCount(0);
  await expectAxeClean(p, "disputed invoice");
  await expectNoHorizontalOverflow(p);
  await shot(p, "payer-disputed-360-de");
  await disputeCard.screenshot({ path: "test-results/e2e/disputes-payer-dispute-card-360-de.png" });

  await p.goto(promised.payment_request.hosted_url);
  const promiseCard = p.getByRole("region", { name: "Zahlungstermin zusagen" });
  await promiseCard.getByLabel("Ich zahle am").fill(dayOffset(-1));
  await promiseCard.getByRole("button", { name: "Zahlung zusagen" }).click();
  await expect(promiseCard.getByText(/Wählen Sie ein Datum von heute bis in 180 Tagen/)).toBeVisible();
  const date = dayOffset(10);
  await promiseCard.getByLabel("Ich zahle am").fill(date);
  await promiseCard.getByRole("button", { name: "Zahlung zusagen" }).click();
  await expect(p.getByRole("status").filter({ hasText: "Sie haben zugesagt" })).toBeVisible();
  await expect(promiseCard.getByTestId("promise-state")).toContainText("990,00");
  await expectAxeClean(p, "promised invoice");
  await expectNoHorizontalOverflow(p);
  await shot(p, "payer-promised-360-de");
  await promiseCard.screenshot({ path: "test-results/e2e/disputes-payer-promise-card-360-de.png" });

  // ---- staff, at a desktop width
  const { inboxLink, items } = await openInbox(page, org, 2);
  await expect(page.getByRole("heading", { level: 1, name: "Inbox" })).toBeVisible();
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toHaveAttribute("data-kind", "promise");
  await expect(items.nth(0)).toContainText("Promise to pay from Initech GmbH");
  await expect(items.nth(0)).toContainText("RE-2026-0102");
  await expect(items.nth(1)).toContainText("Wrong amount");
  await expect(items.nth(1)).toContainText("Vereinbart waren 900,00 €");
  await expectNoAxeViolations(page, "inbox");
  await shot(page, "inbox-desktop");

  await page.getByRole("navigation", { name: "Filter by kind" }).getByRole("link", { name: "Disputes" }).click();
  await expect(page).toHaveURL(/kind=dispute/);
  await expect(items).toHaveCount(1);
  await items
    .first()
    .getByRole("button", { name: /Mark as read/ })
    .click();
  await expect(items.first()).toHaveAttribute("data-unread", "false");
  await expect(inboxLink).toHaveAccessibleName("Inbox (1 unread)");
  await page.getByRole("navigation", { name: "Filter by read state" }).getByRole("link", { name: "Unread only" }).click();
  await expect(page.getByText("Nothing unread.")).toBeVisible();
  await page.getByRole("navigation", { name: "Filter by kind" }).getByRole("link", { name: "All" }).click();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute("data-kind", "promise");

  // the promise on its obligation page
  await page.goto(`/dashboard/obligations/${promised.invoice.id}`);
  await expect(page.getByTestId("promise")).toContainText("Open");
  await expect(page.getByTestId("promise")).toContainText("990.00");
  await expect(page.getByText("Payment promised", { exact: true })).toHaveCount(2); // the header pill and the audit trail line

  // resolve the dispute on its obligation page
  await page.goto("/dashboard/inbox?kind=dispute");
  await items
    .first()
    .getByRole("link", { name: /RE-2026-0101/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/obligations/${disputed.invoice.id}$`));
  const section = page.getByRole("region", { name: "Dispute and promise" });
  await expect(section.getByTestId("dispute")).toContainText("Open");
  await expect(page.getByRole("link", { name: "Disputed" })).toHaveAttribute("href", "#dispute-promise");
  await expect(section).toContainText("Wrong amount");
  await section.getByRole("button", { name: "Resolve dispute" }).click();
  await expect(section.getByText("Choose whether you accept or reject the dispute.")).toBeVisible();
  await section.getByRole("radio", { name: /Reject/ }).check();
  await section.getByLabel("Answer to the payer").fill("The order confirmation of 3 November says 990.00 EUR.");
  await section.getByRole("button", { name: "Resolve dispute" }).click();
  await expect(section.getByText("Dispute rejected. The payer sees your answer.")).toBeVisible();
  await expect(section.getByTestId("dispute")).toContainText("Rejected");
  await expect(page.getByRole("link", { name: "Disputed" })).toHaveCount(0);
  await expect(section.getByTestId("dispute")).toContainText("The order confirmation of 3 November");
  await expectNoAxeViolations(page, "obligation with a resolved dispute");
  await shot(page, "obligation-desktop");
  await section.screenshot({ path: "test-results/e2e/disputes-dispute-section-desktop.png" });

  // 360 px: the inbox and the obligation page
  await page.setViewportSize({ width: 360, height: 780 });
  await expectNoHorizontalOverflow(page);
  await shot(page, "obligation-360");
  await page.goto("/dashboard/inbox");
  await expect(items).toHaveCount(2);
  await expectNoHorizontalOverflow(page);
  await expectNoAxeViolations(page, "inbox at 360 px");
  await shot(page, "inbox-360");

  // the payer sees the answer
  await p.goto(disputed.payment_request.hosted_url);
  await expect(p.getByTestId("dispute-state")).toContainText("hat Ihre Beanstandung nicht akzeptiert");
  await expect(p.getByTestId("dispute-state")).toContainText("The order confirmation of 3 November");
  await expectAxeClean(p, "resolved dispute");
  await shot(p, "payer-resolved-360-de");
  await p
    .getByRole("region", { name: "Stimmt etwas mit dieser Rechnung nicht?" })
    .screenshot({ path: "test-results/e2e/disputes-payer-resolved-card-360-de.png" });
  await payer.context.close();
});
