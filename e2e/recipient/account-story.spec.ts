import { expect as baseExpect, type Page, test } from "@playwright/test";
import { api, expectNoAxeViolations, expectNoHorizontalOverflow, importStatement, openInbox } from "../support/dashboard";
import { BECKER_IBAN, dayOffset, expectAxeClean as axeClean, fiveOpenInvoices, newIssuer, phone } from "../support/recipient";
import { decodeEpcQr } from "../support/epc-qr";
import { camt053 } from "../../test/support/statements";

// Issue 36's story, end to end: a payer with five open invoices opens the account link on a
// phone in German, pays three with one transfer (the EPC QR code decoded field by field
// carries the basket's total and RF reference), disputes one and promises the last; staff see
// both in the inbox and on the counterparty page; the bank statement with the basket's
// reference allocates the three automatically. Axe on every page visited.

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 420_000 });

const IBAN = BECKER_IBAN;
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/e2e/account-story-${name}.png`, fullPage: true });

test("five open invoices: three in one basket, one disputed, one promised; the inbox; the statement allocates the basket", async ({ page, browser }) => {
  const issuer = await newIssuer("Acme Beratung GmbH");
  const org = { api_key: issuer.apiKey, email: issuer.email, password: issuer.password };
  const { ids, counterpartyId, hostedUrl } = await fiveOpenInvoices(issuer);
  const cp = { id: counterpartyId };

  // ---- the payer, on a phone, in German
  const { context, page: p } = await phone(browser);
  await p.goto(hostedUrl);
  await expect(p.getByRole("heading", { name: "Ihre offenen Rechnungen von Acme Beratung GmbH" })).toBeVisible();
  const invoices = p.getByTestId("account-invoice");
  await expect(invoices).toHaveCount(5);
  expect(p.url()).not.toContain("#");
  await axeClean(p, "the account");
  await expectNoHorizontalOverflow(p);
  await shot(p, "account-360-de");

  // three invoices, one transfer
  for (const n of ["RE-2026-001", "RE-2026-002", "RE-2026-004"]) {
    await p.getByRole("checkbox", { name: `Mit einer Überweisung zahlen: Rechnung ${n}` }).check();
  }
  await expect(p.getByTestId("basket-total")).toHaveText(/^700,50\s€$/);
  await p.getByRole("button", { name: "Zahlungsdaten anzeigen" }).click();
  const basket = p.getByTestId("basket");
  await expect(basket).toBeVisible();
  const reference = ((await basket.getAttribute("data-reference")) ?? "").replace(/\s/g, "");
  expect(reference).toMatch(/^RF\d{2}BSK[0-9A-Z]+$/);
  const qr = await decodeEpcQr(basket.getByTestId("girocode-svg"));
  expect(qr.serviceTag).toBe("BCD");
  expect(qr.version).toBe("002");
  expect(qr.encoding).toBe("1"); // UTF-8
  expect(qr.identification).toBe("SCT");
  expect(qr.bic).toBe("COBADEFFXXX");
  expect(qr.name).toBe("Acme Beratung GmbH");
  expect(qr.iban).toBe(IBAN);
  expect(qr.amount).toBe("EUR700.50"); // the basket's total
  expect(qr.purpose).toBe("");
  expect(qr.reference).toBe(reference); // the basket's own RF reference
  expect(qr.lines).toHaveLength(10);
  await axeClean(p, "the basket");
  await expectNoHorizontalOverflow(p);
  await shot(p, "basket-360-de");

  // dispute the third invoice
  const third = invoices.filter({ hasText: "Rechnung RE-2026-003" });
  await expect(third.getByText("Zahlung ausstehend", { exact: true })).toBeVisible();
  await third.getByText("Dokumente, Nachrichten und Antworten").click();
  const disputeCard = third.getByRole("region", { name: "Stimmt etwas mit dieser Rechnung nicht?" });
  await disputeCard.getByRole("radio", { name: "Der Betrag ist falsch" }).check();
  await disputeCard.getByLabel("Erklären Sie es in wenigen Worten").fill("Vereinbart waren 250,00 €, nicht 300,00 €.");
  // more than the invoice's amount is refused in the page's language, before anything is sent
  await disputeCard.getByLabel(/Strittiger Betrag/).fill("9999");
  await disputeCard.getByRole("button", { name: "Beanstandung senden" }).click();
  await expect(disputeCard.getByText(/Geben Sie höchstens den Rechnungsbetrag ein, 300,00/)).toBeVisible();
  await disputeCard.getByLabel(/Strittiger Betrag/).fill("");
  await disputeCard.getByRole("button", { name: "Beanstandung senden" }).click();
  await expect(third.getByRole("status").filter({ hasText: "Ihre Beanstandung wurde an Acme Beratung GmbH gesendet." })).toBeVisible();
  await expect(disputeCard.getByTestId("dispute-state")).toContainText("Der Betrag ist falsch");
  // the status badge says it is disputed, no longer that payment is awaited
  await expect(third.getByText("Beanstandet", { exact: true })).toBeVisible();
  await expect(third.getByText("Zahlung ausstehend", { exact: true })).toHaveCount(0);
  await axeClean(p, "the disputed invoice");

  // promise the last
  const fifth = invoices.filter({ hasText: "Rechnung RE-2026-005" });
  await fifth.getByText("Dokumente, Nachrichten und Antworten").click();
  const promiseCard = fifth.getByRole("region", { name: "Zahlungstermin zusagen" });
  const promiseDate = dayOffset(20);
  await promiseCard.getByLabel("Ich zahle am").fill(promiseDate);
  await promiseCard.getByLabel(/^Betrag/).fill("99999");
  await promiseCard.getByRole("button", { name: "Zahlung zusagen" }).click();
  await expect(promiseCard.getByText(/Geben Sie höchstens den noch offenen Betrag ein, 500,00/)).toBeVisible();
  await promiseCard.getByLabel(/^Betrag/).fill("");
  await promiseCard.getByRole("button", { name: "Zahlung zusagen" }).click();
  await expect(fifth.getByRole("status").filter({ hasText: "Sie haben zugesagt" })).toBeVisible();
  await expect(promiseCard.getByTestId("promise-state")).toContainText("500,00");
  await axeClean(p, "the promised invoice");
  await expectNoHorizontalOverflow(p);
  await shot(p, "dispute-promise-360-de");

  // ---- staff: the inbox
  const { items } = await openInbox(page, org, 2);
  await expect(items).toHaveCount(2);
  const promiseItem = items.filter({ has: page.getByText("RE-2026-005") });
  await expect(promiseItem).toHaveAttribute("data-kind", "promise");
  await expect(promiseItem).toContainText("Promise to pay from Kaufhaus Becker KG");
  const disputeItem = items.filter({ has: page.getByText("RE-2026-003") });
  await expect(disputeItem).toHaveAttribute("data-kind", "dispute");
  await expect(disputeItem).toContainText("Wrong amount");
  await expect(disputeItem).toContainText("Vereinbart waren 250,00 €");
  await expectNoAxeViolations(page, "inbox");
  await shot(page, "inbox-desktop");

  // ---- staff: the counterparty page shows the dispute and the promise as the obligation page does
  await page.goto(`/dashboard/counterparties/${cp.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Kaufhaus Becker KG");
  const open = page.getByRole("list", { name: "Open obligations" }).getByRole("listitem");
  await expect(open).toHaveCount(5);
  await expect(open.filter({ hasText: "RE-2026-003" })).toContainText("Disputed");
  await expect(open.filter({ hasText: "RE-2026-005" })).toContainText("Payment promised");
  const dp = page.getByRole("region", { name: "Disputes and promises" });
  const entries = dp.getByTestId("counterparty-dispute-promise");
  await expect(entries).toHaveCount(2);
  const disputed = entries.filter({ hasText: "RE-2026-003" });
  await expect(disputed.getByTestId("dispute")).toContainText("Open");
  await expect(disputed.getByTestId("dispute")).toContainText("Wrong amount");
  await expect(disputed.getByTestId("dispute")).toContainText("Vereinbart waren 250,00 €, nicht 300,00 €.");
  const promised = entries.filter({ hasText: "RE-2026-005" });
  await expect(promised.getByTestId("promise")).toContainText("Open");
  await expect(promised.getByTestId("promise")).toContainText("500.00");
  await expect(disputed.getByRole("link", { name: "RE-2026-003" })).toHaveAttribute("href", `/dashboard/obligations/${ids[2]}#dispute-promise`);
  await expectNoAxeViolations(page, "counterparty with a dispute and a promise");
  await shot(page, "counterparty-desktop");
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalOverflow(page);
  await expectNoAxeViolations(page, "counterparty at 360 px");
  await shot(page, "counterparty-360");
  await page.setViewportSize({ width: 1280, height: 900 });

  // ---- the bank statement: one transfer of 700.50 quoting the basket's reference
  const camt = camt053([{ amount: "700.50", name: "KAUFHAUS BECKER KG", ustrd: `Sammelzahlung ${reference}`, date: dayOffset(0) }], { iban: IBAN });
  await page.goto("/dashboard/reconciliation");
  const { figure } = await importStatement(page, { name: "becker.xml", mimeType: "application/xml", buffer: Buffer.from(camt) });
  await expect(figure("Transactions")).toHaveText("1");
  await expect(figure("Allocated automatically")).toHaveText("1");
  await expectNoAxeViolations(page, "reconciliation after the import");
  for (const [i, n] of [
    [0, "10000"],
    [1, "20050"],
    [3, "40000"],
  ] as const) {
    const o = await api<{ status: string; allocated_minor: string }>(org.api_key, "GET", `/obligations/${ids[i]}`);
    expect(o.body, `RE-2026-00${i + 1} is paid`).toMatchObject({ status: "RECONCILED", allocated_minor: n });
  }
  for (const i of [2, 4]) {
    const o = await api<{ status: string; allocated_minor: string }>(org.api_key, "GET", `/obligations/${ids[i]}`);
    expect(o.body.allocated_minor, `RE-2026-00${i + 1} is untouched`).toBe("0");
  }
  await page.goto(`/dashboard/counterparties/${cp.id}`);
  await expect(page.getByRole("list", { name: "Open obligations" }).getByRole("listitem")).toHaveCount(2);
  await expect(page.getByRole("list", { name: "Payments received" })).toContainText("700.50");

  // the payer's account now lists the two still open
  await p.reload();
  await expect(invoices).toHaveCount(2);
  await expect(invoices.filter({ hasText: "RE-2026-003" })).toHaveCount(1);
  await expect(invoices.filter({ hasText: "RE-2026-005" })).toHaveCount(1);
  await axeClean(p, "the account after the transfer");
  await context.close();
});
