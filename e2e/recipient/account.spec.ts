import { randomUUID } from "node:crypto";
import { expect as baseExpect, test } from "@playwright/test";
import { decodeEpcQr } from "../support/epc-qr";
import { newOrgWithOwner } from "../support/fixtures";
import { apiCall as call, expectAxeClean as axeClean, fiveOpenInvoices, newIssuer } from "../support/recipient";

// The payer's account (/a/{account}) on a phone in German: five open invoices, three of them
// in one transfer; the EPC QR code decoded from a screenshot carries the total and the
// basket's reference; axe clean; screenshots.
const expect = baseExpect.configure({ timeout: 30_000 });
test.use({ viewport: { width: 360, height: 780 }, locale: "de-DE" });
test.describe.configure({ timeout: 180_000 });

test("a payer with five open invoices pays three with one transfer (German, phone)", async ({ page }, testInfo) => {
  const { hostedUrl } = await fiveOpenInvoices(await newIssuer("Acme Beratung GmbH"));
  await page.goto(hostedUrl);
  await expect(page.getByRole("heading", { name: "Ihre offenen Rechnungen von Acme Beratung GmbH" })).toBeVisible();
  await expect(page.getByTestId("account-invoice")).toHaveCount(5);
  expect(page.url()).not.toContain("#");
  await axeClean(page, "account");
  await page.screenshot({ path: testInfo.outputPath("account.png"), fullPage: true });

  for (const n of ["RE-2026-001", "RE-2026-002", "RE-2026-004"]) {
    await page.getByRole("checkbox", { name: `Mit einer Überweisung zahlen: Rechnung ${n}` }).check();
  }
  await expect(page.getByTestId("basket-total")).toHaveText(/700,50\s€/);
  await page.getByRole("button", { name: "Zahlungsdaten anzeigen" }).click();
  const basket = page.getByTestId("basket");
  await expect(basket).toBeVisible();
  const reference = ((await basket.getAttribute("data-reference")) ?? "").replace(/\s/g, "");
  expect(reference).toMatch(/^RF\d{2}BSK/);
  const qr = await decodeEpcQr(page.getByTestId("girocode-svg"));
  expect(qr.iban).toBe("DE89370400440532013000");
  expect(qr.amount).toBe("EUR700.50");
  expect(qr.reference).toBe(reference);
  await axeClean(page, "basket");
  await page.screenshot({ path: testInfo.outputPath("basket.png"), fullPage: true });
});

test("an invoice's earlier messages load on request on the account page", async ({ page }) => {
  test.setTimeout(360_000); // 101 messages registered through the API first
  const org = await newOrgWithOwner("Lange Fäden GmbH");
  const key = { authorization: `Bearer ${org.api_key}` };
  const debtor = { name: "Kaufhaus Becker KG", email: `ap-${randomUUID().slice(0, 8)}@becker.example` };
  const reg = await call(key, "POST", "/obligations", {
    obligation_type: "invoice",
    external_reference: { namespace: "erp", id: randomUUID() },
    debtor,
    amount_minor: "10000",
    currency: "EUR",
    deadline: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10),
    business_context: { invoice_number: "RE-2026-101" },
  });
  let version = reg.invoice.version as number;
  for (let i = 0; i < 101; i++) {
    const r = await call(key, "POST", `/obligations/${reg.invoice.id}/actions`, {
      action: "post_message",
      expected_version: version,
      message: `Nachricht ${i}`,
    });
    version = r.invoice.version;
  }
  const cp = (await call(key, "GET", "/counterparties")).items[0];
  const link = await call(key, "POST", `/counterparties/${cp.id}/account-link`, {});

  await page.goto(link.hosted_url);
  const invoice = page.getByTestId("account-invoice").filter({ hasText: "Rechnung RE-2026-101" });
  await invoice.getByText("Dokumente, Nachrichten und Antworten").click();
  const thread = invoice.getByRole("list", { name: "Nachrichtenverlauf" });
  await expect(thread.getByText("Nachricht 100", { exact: true })).toBeVisible();
  await expect(thread.getByRole("listitem")).toHaveCount(100);
  await expect(thread.getByText("Nachricht 0", { exact: true })).toHaveCount(0);
  await invoice.getByRole("button", { name: "Frühere Nachrichten anzeigen" }).click();
  await expect(thread.getByText("Nachricht 0", { exact: true })).toBeVisible();
  await expect(thread.getByRole("listitem")).toHaveCount(101);
  await expect(thread.getByRole("listitem").first()).toContainText("Nachricht 0");
  await expect(invoice.getByRole("button", { name: "Frühere Nachrichten anzeigen" })).toHaveCount(0);
  await axeClean(page, "earlier messages");
});
