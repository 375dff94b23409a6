import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { PDFDocument } from "pdf-lib";
import { newOrgWithOwner } from "../support/fixtures";
import { expectNoAxeViolations, expectNoHorizontalOverflow, signIn } from "../support/dashboard";

// The Import page: several e-invoices chosen at once (the file input, as a keyboard user
// would), each previewed by a dry run with its warnings or its refusal, a role per file,
// confirmed one by one and all at once, with links to the new obligations.

const FIX = join(process.cwd(), "test/fixtures/einvoice");
const shot = (name: string) => `test-results/e2e/einvoice-import-${name}.png`;

test("an owner imports e-invoices: preview, role per file, confirm, links", async ({ page }) => {
  test.setTimeout(480_000);
  const org = await newOrgWithOwner("Koksmaat Import BV");
  await signIn(page, org.email, org.password);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Import" }).click();
  await expect(page).toHaveURL(/\/dashboard\/imports$/);
  await expect(page.getByRole("heading", { name: "Import e-invoices", level: 1 })).toBeVisible();
  await expectNoAxeViolations(page, "import page (empty)");

  const cii = readFileSync(join(FIX, "en16931/cii/CII_example1.xml"));
  const pdfDoc = await PDFDocument.create();
  pdfDoc.addPage();
  await pdfDoc.attach(readFileSync(join(FIX, "peppol/base-example.xml")), "factur-x.xml", { mimeType: "text/xml" });
  const pdf = Buffer.from(await pdfDoc.save());
  const huf = readFileSync(join(FIX, "en16931/cii/huf_example_cii.xml"));
  const noDue = Buffer.from(readFileSync(join(FIX, "peppol/vat-category-Z.xml")));

  await page.getByLabel("Choose files").setInputFiles([
    { name: "CII_example1.xml", mimeType: "text/xml", buffer: cii },
    { name: "facturx.pdf", mimeType: "application/pdf", buffer: pdf },
    { name: "huf_example_cii.xml", mimeType: "text/xml", buffer: huf },
    { name: "vat-category-Z.xml", mimeType: "text/xml", buffer: noDue },
  ]);

  const item = (name: string) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });
  await expect(item("CII_example1.xml")).toContainText("12115118");
  await expect(item("CII_example1.xml")).toContainText("€250.33");
  await expect(item("CII_example1.xml")).toContainText("De Koksmaat");
  await expect(item("facturx.pdf")).toContainText("in PDF");
  await expect(item("huf_example_cii.xml").getByRole("alert")).toContainText("BT-5");
  // No due date (BT-9), and the organization is not the file's seller.
  await expect(item("vat-category-Z.xml")).toContainText("2 warnings");
  await expect(item("vat-category-Z.xml")).toContainText("BT-9");
  await expect(item("vat-category-Z.xml")).toContainText("imported as seller, but the seller");
  await page.screenshot({ path: shot("preview"), fullPage: true });
  await expectNoAxeViolations(page, "import page with previews");

  // Role per file: as the buyer of the first invoice we are its debtor.
  await item("CII_example1.xml").getByLabel("Our role").selectOption("debtor");
  await expect(item("CII_example1.xml")).toContainText("12115118");

  // Confirm one, then the rest at once.
  await item("CII_example1.xml").getByRole("button", { name: "Register CII_example1.xml" }).click();
  const link = item("CII_example1.xml").getByRole("link", { name: /^OBL-/ });
  await expect(link).toBeVisible();
  await page.getByRole("button", { name: "Register 2 obligations" }).click();
  await expect(item("facturx.pdf").getByRole("link", { name: /^OBL-/ })).toBeVisible();
  await expect(item("vat-category-Z.xml").getByRole("link", { name: /^OBL-/ })).toBeVisible();
  await page.screenshot({ path: shot("registered"), fullPage: true });
  await expectNoAxeViolations(page, "import page after registering");

  // 360 px: no horizontal overflow.
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: shot("360px"), fullPage: true });

  // The link opens the obligation, with the role chosen for it.
  await page.setViewportSize({ width: 1280, height: 900 });
  await link.click();
  await expect(page).toHaveURL(/\/dashboard\/obligations\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("main")).toContainText("12115118");

  // The same file again is a duplicate, named in the preview.
  await page.goto("/dashboard/imports");
  await page.getByLabel("Choose files").setInputFiles([{ name: "again.xml", mimeType: "text/xml", buffer: cii }]);
  await expect(item("again.xml").getByRole("alert")).toContainText("already");
  await expectNoAxeViolations(page, "import page with a duplicate");
});
