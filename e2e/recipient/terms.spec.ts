import { expect as baseExpect, test } from "@playwright/test";
import { catalogue } from "../../lib/i18n/recipient";
import { decodeEpcQr } from "../support/epc-qr";
import { attachShot, expectAxeClean, issuerCall as call, newIssuer, registerInvoice, type Issuer } from "../support/recipient";

// The payer's page tells the truth about terms (docs/obligations.md, Lifecycle): it leads with what to
// transfer now — what is due today, else the outstanding payable amount with the date it
// is due, never "0.00 to pay" for an obligation payable by its deadline, the QR code asking
// for the same amount; terms are shown as paid as far as the settled amount covers them, in
// sequence order; numbers and sizes are in the payer's language.

const expect = baseExpect.configure({ timeout: 30_000 });
test.use({ viewport: { width: 360, height: 780 } });
test.describe.configure({ timeout: 180_000 });

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const en = catalogue("en");
const de = catalogue("de");

// An issuer whose EUR bank details are set (the page shows how to pay).
async function newPayee(name: string): Promise<Issuer> {
  const issuer = await newIssuer(name);
  await call(
    issuer,
    "PUT",
    "/payment-instructions/EUR",
    { account_holder: "Acme Consulting GmbH", iban: "DE89 3704 0044 0532 0130 00", bic: "COBADEFFXXX" },
    { session: true },
  );
  return issuer;
}

const register = (issuer: Issuer, overrides: Record<string, unknown> = {}) =>
  registerInvoice(issuer, { deadline: day(21), business_context: { invoice_number: "INV-2026-0311" }, ...overrides });

async function pay(issuer: Issuer, obligationId: string, amount: string) {
  const o = await call(issuer, "GET", `/obligations/${obligationId}`);
  const p = await call(issuer, "POST", "/payments", { amount_minor: amount, currency: "EUR", received_on: day(0) });
  await call(issuer, "POST", `/payments/${p.id}/allocations`, { obligation_id: obligationId, amount_minor: amount, expected_version: o.version });
}

test("a plain invoice due in three weeks leads with its full amount and date, and the QR code asks for the same", async ({ browser }, testInfo) => {
  const issuer = await newPayee("Acme Consulting GmbH");
  const link = await register(issuer);
  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, locale: "en-GB" });
  const page = await context.newPage();
  await page.goto(link.hostedUrl);
  const lead = page.getByTestId("to-pay-now");
  await expect(lead).toContainText(en["overview.toPayBy"].replace("{date}", ""));
  await expect(lead).toContainText("€1,250.50");
  await expect(lead).not.toContainText("0.00");
  await expect(lead).not.toContainText(en["overview.nothingDue"]);
  await expect(page.getByTestId("pay-amount")).toHaveText("€1,250.50");
  expect((await decodeEpcQr(page.getByTestId("girocode-svg"))).amount).toBe("EUR1250.50");
  await expectAxeClean(page, "plain invoice");
  await attachShot(page, testInfo, "plain-invoice");
  await context.close();
});

test("terms: the first part leads with its date; paid parts are Paid in sequence order, a fully paid one is never Upcoming", async ({ browser }, testInfo) => {
  const issuer = await newPayee("Acme Consulting GmbH");
  const link = await register(issuer, {
    amount_minor: "1000000",
    deadline: day(60),
    payment_terms: [
      {
        sequence: 1,
        label: "Deposit",
        amount_type: "fixed",
        fixed_amount_minor: "300000",
        trigger_type: "immediately",
        due_rule: "specific_date",
        due_date: day(14),
      },
      { sequence: 2, amount_type: "fixed", fixed_amount_minor: "700000", trigger_type: "immediately", due_rule: "specific_date", due_date: day(60) },
    ],
  });
  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, locale: "en-GB" });
  const page = await context.newPage();
  await page.goto(link.hostedUrl);
  const lead = page.getByTestId("to-pay-now");
  await expect(lead).toContainText("€3,000.00");
  await expect(page.getByTestId("pay-amount")).toHaveText("€3,000.00");
  expect((await decodeEpcQr(page.getByTestId("girocode-svg"))).amount).toBe("EUR3000.00");
  const termsCard = page.getByRole("region", { name: en["terms.title"] });
  const terms = termsCard.getByRole("listitem");
  await expect(terms).toHaveCount(2);
  await expect(terms.nth(0)).toContainText(en["terms.upcoming"]);
  await attachShot(page, testInfo, "terms-open");

  // The deposit and part of the rest paid: Deposit is Paid, part 2 partly paid, and what
  // leads is the rest that is payable, by part 2's date.
  await pay(issuer, link.id, "400000");
  await page.reload();
  await expect(terms.nth(0)).toContainText(en["terms.paid"]);
  await expect(terms.nth(1)).toContainText(en["terms.partlyPaid"]);
  await expect(lead).toContainText("€6,000.00");
  await expect(lead).toContainText(en["overview.toPayBy"].replace(" {date}", ""));
  expect((await decodeEpcQr(page.getByTestId("girocode-svg"))).amount).toBe("EUR6000.00");
  await expectAxeClean(page, "terms partly paid");
  await attachShot(page, testInfo, "terms-partly-paid");

  // Fully paid: both parts Paid, none Upcoming.
  await pay(issuer, link.id, "600000");
  await page.reload();
  await expect(page.getByRole("heading", { name: en["paid.title"] })).toBeVisible();
  await expect(terms.nth(0)).toContainText(en["terms.paid"]);
  await expect(terms.nth(1)).toContainText(en["terms.paid"]);
  await expect(termsCard).not.toContainText(en["terms.upcoming"]);
  await expectAxeClean(page, "terms paid");
  await attachShot(page, testInfo, "terms-paid");
  await context.close();
});

test("in German, the amount example and the file sizes are German numbers", async ({ browser }, testInfo) => {
  const issuer = await newPayee("Acme Consulting GmbH");
  const link = await register(issuer);
  const fd = new FormData();
  fd.append("expected_version", String(link.version));
  fd.append("kind", "supporting");
  fd.append("file", new Blob(["Lieferschein\n".repeat(181)], { type: "text/plain" }), "lieferschein.txt"); // 2353 bytes: 2.3 KB
  await call(issuer, "POST", `/obligations/${link.id}/documents`, undefined, { form: fd });
  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, locale: "de-DE", extraHTTPHeaders: { "accept-language": "de-DE" } });
  const page = await context.newPage();
  await page.goto(link.hostedUrl);
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByText(de["report.amountHint"].replace("{example}", "1250,00"))).toBeVisible();
  const docs = page.getByRole("region", { name: de["docs.title"] });
  await expect(docs).toContainText("2,3 KB");
  await expect(docs).not.toContainText("2.3 KB");
  await expect(page.getByTestId("to-pay-now")).toContainText("1.250,50");
  await expectAxeClean(page, "german");
  await attachShot(page, testInfo, "german");
  await context.close();
});
