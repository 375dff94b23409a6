import { randomUUID } from "node:crypto";
import { expect as baseExpect, test, type Browser } from "@playwright/test";
import { db } from "../../lib/db/client";
import { catalogue, RECIPIENT_LANGUAGES, type RecipientLanguage } from "../../lib/i18n/recipient";
import { decodeEpcQr } from "../support/epc-qr";
import { attachShot, expectAxeClean, issuerCall, newIssuer, registerInvoice, type Issuer } from "../support/recipient";

// The machine running these is shared and loaded: give the page time, never a timed assertion.
const expect = baseExpect.configure({ timeout: 30_000 });

// How to pay, in seven languages, at 360 px: payment instructions set by the owner (over the
// API with a signed-in session), a real hosted link, the EPC QR code decoded from a
// screenshot, copy buttons, the language switcher, every state axe-clean in every language,
// and the print rendering.

test.use({ viewport: { width: 360, height: 780 } });
test.describe.configure({ timeout: 180_000 });

const BASE = () => process.env.E2E_BASE_URL!;
const IBAN = "DE89370400440532013000";

const call = (issuer: Issuer, method: string, path: string, body?: unknown, session = false) => issuerCall(issuer, method, path, body, { session });

const register = (issuer: Issuer, overrides: Record<string, unknown> = {}) =>
  registerInvoice(issuer, { business_context: { invoice_number: "INV-2026-0107", description: "Consulting, November" }, ...overrides });

async function setInstructions(issuer: Issuer) {
  await call(
    issuer,
    "PUT",
    "/payment-instructions/EUR",
    {
      account_holder: "Acme Consulting GmbH",
      iban: "DE89 3704 0044 0532 0130 00",
      bic: "COBADEFFXXX",
      bank_name: "Commerzbank",
      note: "Please pay within 30 days.",
    },
    true,
  );
}

test("the EPC QR code (GiroCode) carries the transfer field by field; copy buttons copy; print is a clean payment request", async ({ browser }, testInfo) => {
  const issuer = await newIssuer("Acme Consulting GmbH");
  await setInstructions(issuer);
  const link = await register(issuer);
  const inv = await call(issuer, "GET", `/invoices/${link.id}`);
  const detail = await call(issuer, "GET", `/obligations/${link.id}`);
  const due = BigInt(inv.due_minor) - BigInt(inv.allocated_minor);
  const transfer = due > 0n ? due : BigInt(inv.amount_minor) - BigInt(inv.allocated_minor);
  const decimal = `${transfer / 100n}.${String(transfer % 100n).padStart(2, "0")}`;

  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, locale: "en-GB", permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  await page.goto(link.hostedUrl);
  await expect(page.getByRole("heading", { name: "How to pay" })).toBeVisible();

  const fields = (await decodeEpcQr(page.getByTestId("girocode-svg"))).lines;
  expect(fields[0]).toBe("BCD"); // service tag
  expect(fields[1]).toBe("002"); // version
  expect(fields[2]).toBe("1"); // UTF-8
  expect(fields[3]).toBe("SCT"); // SEPA credit transfer
  expect(fields[4]).toBe("COBADEFFXXX");
  expect(fields[5]).toBe("Acme Consulting GmbH");
  expect(fields[6]).toBe(IBAN);
  expect(fields[7]).toBe(`EUR${decimal}`);
  expect(fields[8]).toBe(""); // purpose
  expect(fields[9]).toBe(detail.payment_reference); // structured remittance: the RF reference
  expect(fields).toHaveLength(10);

  // what the page shows, grouped for people
  await expect(page.getByTestId("pay-iban")).toHaveText("DE89 3704 0044 0532 0130 00");
  await expect(page.getByTestId("pay-reference")).toHaveText(detail.payment_reference.replace(/(.{4})(?=.)/g, "$1 "));
  await expect(page.getByTestId("pay-bic")).toHaveText("COBADEFFXXX");
  await expect(page.getByTestId("pay-holder")).toHaveText("Acme Consulting GmbH");
  await expect(page.getByTestId("pay-note")).toHaveText("Please pay within 30 days.");

  // copy buttons put the compact values on the clipboard
  for (const [id, expected] of [
    ["pay-iban", IBAN],
    ["pay-reference", detail.payment_reference],
    ["pay-amount", decimal],
  ] as const) {
    await page.getByTestId(`${id}-copy`).click();
    // the button says "Copied" for two seconds; the live region keeps the announcement
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
    await expect(page.getByRole("region", { name: "How to pay" }).getByRole("status")).toContainText("copied to the clipboard");
  }
  await expectAxeClean(page, "how to pay");
  await attachShot(page, testInfo, "how-to-pay-en");

  // print: the payment request with its QR code, without buttons or forms
  await page.emulateMedia({ media: "print" });
  await expect(page.getByTestId("girocode-svg")).toBeVisible();
  await expect(page.getByTestId("pay-iban-copy")).toBeHidden();
  await expect(page.getByRole("button", { name: "Report payment" })).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Language" })).toBeHidden();
  expect(await page.locator("form").evaluateAll((forms) => forms.filter((f) => (f as HTMLElement).offsetParent !== null).length)).toBe(0);
  const printed = (await decodeEpcQr(page.getByTestId("girocode-svg"))).lines;
  expect(printed[6]).toBe(IBAN);
  await attachShot(page, testInfo, "print");
  await context.close();
});

test("without instructions for the currency the page says to contact the issuer", async ({ page }, testInfo) => {
  const issuer = await newIssuer("Yamato Trading KK");
  await setInstructions(issuer); // EUR only
  const link = await register(issuer, { currency: "JPY", amount_minor: "250000" });
  await page.goto(link.hostedUrl);
  await expect(page.getByTestId("pay-none")).toContainText("contact the issuer");
  await expect(page.getByTestId("pay-none")).toContainText("JPY");
  await expect(page.getByTestId("pay-reference")).toBeVisible();
  await expect(page.getByTestId("girocode")).toHaveCount(0);
  await expectAxeClean(page, "no instructions");
  await attachShot(page, testInfo, "no-instructions");
});

test("the language switcher persists across a reload", async ({ page }) => {
  const issuer = await newIssuer("Acme Consulting GmbH");
  await setInstructions(issuer);
  const link = await register(issuer);
  await page.goto(link.hostedUrl);
  await expect(page.getByRole("heading", { name: "How to pay" })).toBeVisible();
  await page.getByRole("navigation", { name: "Language" }).getByRole("link", { name: "Deutsch" }).click();
  await expect(page.getByRole("heading", { name: "So bezahlen Sie" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect.poll(() => new URL(page.url()).search).toBe("");
  await page.reload();
  await expect(page.getByRole("heading", { name: "So bezahlen Sie" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Deutsch" })).toHaveAttribute("aria-current", "true");
  const lang = (await page.context().cookies()).find((c) => c.name === "fos_lang");
  expect(lang?.value).toBe("de");
  // and back to English
  await page.getByRole("link", { name: "English" }).click();
  await expect(page.getByRole("heading", { name: "How to pay" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "How to pay" })).toBeVisible();
});

// Every state in every language: chosen from Accept-Language, axe clean, a 360 px screenshot.
test.describe("every language", () => {
  test.describe.configure({ timeout: 480_000 });
  let links: { ready: string; revoked: string; expired: string; paid: string; offline: string; invalid: string };
  let issuerName = "";

  test.beforeAll(async () => {
    const issuer = await newIssuer("Acme Consulting GmbH");
    issuerName = issuer.name;
    await setInstructions(issuer);
    const ready = await register(issuer);
    const revoked = await register(issuer);
    await call(issuer, "POST", `/obligations/${revoked.id}/actions`, { action: "revoke_link", expected_version: revoked.version });
    const expired = await register(issuer);
    await db().paymentRequest.updateMany({ where: { id: expired.requestId }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const paid = await register(issuer);
    const payment = await call(issuer, "POST", "/payments", { amount_minor: "125050", currency: "EUR", received_on: new Date().toISOString().slice(0, 10) });
    await call(issuer, "POST", `/payments/${payment.id}/allocations`, { obligation_id: paid.id, amount_minor: "125050", expected_version: paid.version });
    const offline = await register(issuer);
    links = {
      ready: ready.hostedUrl,
      revoked: revoked.hostedUrl,
      expired: expired.hostedUrl,
      paid: paid.hostedUrl,
      offline: offline.hostedUrl,
      invalid: `${BASE()}/r/${randomUUID()}`,
    };
  });

  for (const lang of RECIPIENT_LANGUAGES) {
    test(`${lang}`, async ({ browser }, testInfo) => {
      const t = catalogue(lang as RecipientLanguage);
      const context = await (browser as Browser).newContext({
        viewport: { width: 360, height: 780 },
        locale: lang,
        extraHTTPHeaders: { "accept-language": `${lang};q=0.9` },
      });
      const page = await context.newPage();
      const h1 = page.getByRole("heading", { level: 1 });

      await page.goto(links.ready);
      await expect(page.getByRole("heading", { name: t["pay.title"] })).toBeVisible();
      await expect(h1).toHaveText(issuerName);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await expect(page.getByRole("heading", { name: t["report.title"], exact: true })).toBeVisible();
      await expect(page.getByTestId("girocode-svg")).toBeVisible();
      await expectAxeClean(page, `${lang} ready`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${lang}: horizontal overflow`).toBeLessThanOrEqual(0);
      await attachShot(page, testInfo, `${lang}-ready`);

      for (const [state, url, title] of [
        ["invalid", links.invalid, t["state.invalid.title"]],
        ["revoked", links.revoked, t["state.revoked.title"]],
        ["expired", links.expired, t["state.expired.title"]],
      ] as const) {
        await page.goto(url);
        await expect(h1).toHaveText(title);
        await expectAxeClean(page, `${lang} ${state}`);
        await attachShot(page, testInfo, `${lang}-${state}`);
      }

      await page.goto(links.paid);
      await expect(page.getByRole("heading", { name: t["paid.title"] })).toBeVisible();
      await expectAxeClean(page, `${lang} paid`);
      await attachShot(page, testInfo, `${lang}-paid`);

      await page.route("**/api/v1/recipient/**", (route) => route.abort("internetdisconnected"));
      await page.goto(links.offline);
      await expect(h1).toHaveText(t["state.network.title"]);
      await expect(page.getByRole("button", { name: t["state.retry"] })).toBeVisible();
      await expectAxeClean(page, `${lang} network`);
      await attachShot(page, testInfo, `${lang}-network`);
      await context.close();
    });
  }
});
