import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { camt053 } from "../../test/support/statements";
import { newOrgWithOwner } from "../support/fixtures";
import { api, checkBothSizes, expectNoAxeViolations, figureOf, importStatement, signIn } from "../support/dashboard";

// The Reconciliation page as a clerk uses it: obligations registered through the API, a
// camt.053 built from their payment references and invoice numbers imported by the file
// input (progress, then the summary with the automatic allocation), a real MT940 fixture
// imported (and again: duplicates), a CSV that needs a column mapping, a suggestion
// accepted with the keyboard, a stale one refused with a 409, one payment split over two
// obligations by hand, and the results checked through the API.

type Detail = { id: string; reference: string; payment_reference: string; version: number; allocated_minor: string; amount_minor: string };
type Payment = { id: string; allocated_minor: string; unallocated_minor: string; allocations: { obligation_id: string; amount_minor: string }[] };
type StatementDetail = { items: { payment_id: string | null; counterparty_name: string; match: string }[] };

async function register(apiKey: string, o: { amount: string; invoice: string; counterparty: string; role?: "creditor" | "debtor" }): Promise<Detail> {
  const party = { name: o.counterparty, email: `ap-${randomUUID().slice(0, 6)}@example.test` };
  const r = await api<{ obligation: { id: string } }>(apiKey, "POST", "/obligations", {
    obligation_type: "invoice",
    external_reference: { namespace: "e2e", id: randomUUID() },
    ...(o.role === "debtor" ? { organization_role: "debtor", creditor: party } : { debtor: party }),
    amount_minor: o.amount,
    currency: "EUR",
    deadline: "2026-11-25",
    business_context: { invoice_number: o.invoice },
  });
  expect(r.status).toBe(201);
  return (await api<Detail>(apiKey, "GET", `/obligations/${r.body.obligation.id}`)).body;
}

const obligation = async (apiKey: string, id: string) => (await api<Detail>(apiKey, "GET", `/obligations/${id}`)).body;

test("a clerk imports statements, accepts a suggestion with the keyboard and splits a payment by hand", async ({ page }) => {
  test.setTimeout(480_000);
  const org = await newOrgWithOwner("Reconcile Works BV");
  const key = org.api_key;
  const tag = randomUUID().slice(0, 4).toUpperCase();
  const a = await register(key, { amount: "125000", invoice: `INV-${tag}-101`, counterparty: "Northwind Traders Ltd" });
  const b = await register(key, { amount: "40000", invoice: `INV-${tag}-102`, counterparty: "Contoso GmbH" });
  const c = await register(key, { amount: "30000", invoice: `INV-${tag}-103`, counterparty: "Fabrikam SA" });
  const d = await register(key, { amount: "20000", invoice: `INV-${tag}-104`, counterparty: "Fabrikam SA" });
  const e = await register(key, { amount: "9900", invoice: `GLX-${tag}-7`, counterparty: "Globex Supplies", role: "debtor" });

  // The statement names them as banks do: A by its RF reference (structured), B and E by
  // invoice number in free text with the right amount, C+D not at all (a lump sum).
  const camt = camt053([
    { amount: "1250.00", name: "NORTHWIND TRADERS", rf: a.payment_reference },
    { amount: "400.00", name: "Contoso GmbH", ustrd: `Invoice INV-${tag}-102 thank you` },
    { amount: "450.00", name: "FABRIKAM SA", ustrd: "November deliveries" },
    { amount: "99.00", name: "Globex Supplies", ustrd: `GLX-${tag}-7`, credit: false },
  ]);

  await signIn(page, org.email, org.password);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reconciliation" }).click();
  await expect(page).toHaveURL(/\/dashboard\/reconciliation$/);
  await expect(page.getByRole("heading", { name: "Reconciliation", level: 1 })).toBeVisible();
  await expect(page.getByText("Nothing needs a person.")).toBeVisible();
  await checkBothSizes(page, "reconciliation", "empty");

  // Import: progress while it runs, then the summary.
  const { figure } = await importStatement(page, { name: "november.xml", mimeType: "application/xml", buffer: Buffer.from(camt) });
  await expect(figure("Transactions")).toHaveText("4");
  await expect(figure("Credits (money in)")).toHaveText("3");
  await expect(figure("Debits (money out)")).toHaveText("1");
  await expect(figure("Payments created")).toHaveText("4");
  await expect(figure("Duplicates skipped")).toHaveText("0");
  await expect(figure("Allocated automatically")).toHaveText("1");
  expect((await obligation(key, a.id)).allocated_minor).toBe("125000");
  await checkBothSizes(page, "reconciliation", "imported");

  // The unallocated payments: "needs a person" is the default filter, in the URL.
  const row = (name: RegExp) =>
    page
      .getByRole("list", { name: "Unallocated payments" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name }) });
  await expect(row(/^From Contoso GmbH/)).toContainText(`Invoice INV-${tag}-102`);
  await expect(row(/^From Contoso GmbH/)).toContainText("High confidence");
  await expect(row(/^From Contoso GmbH/).getByRole("list", { name: "Evidence" })).toContainText(`INV-${tag}-102`);
  await expect(row(/^To Globex Supplies/)).toContainText("Money out");
  // The lump sum matches no amount: only the payer and the date, a low-confidence guess.
  await expect(row(/^From FABRIKAM SA/)).toContainText("Low confidence");
  await expect(row(/^From NORTHWIND/)).toHaveCount(0);
  await page.getByRole("navigation", { name: "Filter payments" }).getByRole("link", { name: "All unallocated" }).click();
  await expect(page).toHaveURL(/show=all/);
  await expect(page.getByRole("navigation", { name: "Filter payments" }).getByRole("link", { name: "All unallocated" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.getByRole("navigation", { name: "Filter payments" }).getByRole("link", { name: "Needs a person" }).click();
  await expect(page).toHaveURL(/show=needs-person/);

  // Accept with the keyboard: focus the row's button, press Enter.
  const accept = row(/^From Contoso GmbH/).getByRole("button", { name: /^Accept/ });
  await accept.focus();
  await page.keyboard.press("Enter");
  await expect(row(/^From Contoso GmbH/)).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: `Accepted: €400.00 to INV-${tag}-102 from Contoso GmbH.` })).toBeVisible();
  expect((await obligation(key, b.id)).allocated_minor).toBe("40000");

  // A suggestion that moved on: part of the Globex payment is allocated behind the page's back.
  const statementHref = await page.getByRole("list", { name: "Bank statements" }).getByRole("link").first().getAttribute("href");
  const statement = (await api<StatementDetail>(key, "GET", `/bank-statements/${statementHref?.split("/").pop()}`)).body;
  const globexPayment = statement.items.find((i) => i.counterparty_name === "Globex Supplies")?.payment_id;
  expect(globexPayment).toBeTruthy();
  const partial = await api(key, "POST", `/payments/${globexPayment}/allocations`, { obligation_id: e.id, amount_minor: "1000", expected_version: e.version });
  expect(partial.status).toBe(200);
  await row(/^To Globex Supplies/)
    .getByRole("button", { name: /^Accept/ })
    .click();
  await expect(page.getByRole("alert").filter({ hasText: "no longer current" })).toBeVisible();
  await expect(row(/^To Globex Supplies/)).toContainText("€89.00 left");
  await checkBothSizes(page, "reconciliation", "stale-suggestion");
  // The refreshed row carries the current suggestion, which is accepted.
  await row(/^To Globex Supplies/)
    .getByRole("button", { name: /^Accept/ })
    .click();
  await expect(row(/^To Globex Supplies/)).toHaveCount(0);
  expect((await obligation(key, e.id)).allocated_minor).toBe("9900");

  // Split the Fabrikam lump sum by hand: €300 to C, €150 to D.
  await row(/^From FABRIKAM SA/)
    .getByRole("link", { name: /split by hand/ })
    .click();
  await expect(page).toHaveURL(/\/dashboard\/reconciliation\/payments\/[0-9a-f-]{36}$/);
  const fabrikamPayment = page.url().split("/").pop();
  // A suggestion the clerk knows is wrong: "Not this one" hides it for this payment (§12 reject).
  const suggestionList = page.getByRole("list", { name: "Suggestions" }).locator(":scope > li");
  const before = await suggestionList.count();
  expect(before).toBeGreaterThan(0);
  await suggestionList
    .first()
    .getByRole("button", { name: /^Not this one/ })
    .click();
  await expect(suggestionList).toHaveCount(before - 1);
  const split = page.getByRole("form", { name: "Split the payment over obligations" });
  await expect(split.getByTestId("split-remaining")).toContainText("€450.00 of €450.00");
  await split.getByLabel(`Amount for INV-${tag}-103`).fill("300");
  await expect(split.getByTestId("split-remaining")).toContainText("€150.00 of €450.00");
  await expect(split.getByTestId(`after-${c.reference}`)).toContainText("€0.00");
  await split.getByLabel(`Amount for INV-${tag}-104`).fill("200.001");
  await expect(split.getByText("EUR amounts have at most 2 decimal places.")).toBeVisible();
  await split.getByLabel(`Amount for INV-${tag}-104`).fill("150");
  await expect(split.getByTestId("split-remaining")).toContainText("€0.00 of €450.00");
  await expect(split.getByTestId(`after-${d.reference}`)).toContainText("€50.00");
  await checkBothSizes(page, "reconciliation", "split");
  await split.getByRole("button", { name: "Allocate" }).click();
  await expect(page.getByRole("region", { name: "Allocations" }).getByRole("link", { name: c.reference })).toBeVisible();
  await expect(page.getByRole("region", { name: "Allocations" }).getByRole("link", { name: d.reference })).toBeVisible();
  const fab = (await api<Payment>(key, "GET", `/payments/${fabrikamPayment}`)).body;
  expect(fab.unallocated_minor).toBe("0");
  expect(fab.allocations.map((x) => [x.obligation_id, x.amount_minor]).sort()).toEqual(
    [
      [c.id, "30000"],
      [d.id, "15000"],
    ].sort(),
  );
  expect((await obligation(key, c.id)).allocated_minor).toBe("30000");
  expect((await obligation(key, d.id)).allocated_minor).toBe("15000");

  // The statement's own page: what became of each transaction, as it stands now (the
  // accepted suggestion is "Allocated", no longer "suggested").
  await page.goto(statementHref!);
  const items = page.getByRole("list", { name: "Transactions" });
  await expect(items.getByRole("listitem").filter({ hasText: "NORTHWIND" })).toContainText("Allocated automatically");
  await expect(items.getByRole("listitem").filter({ hasText: "Contoso" })).toContainText("Allocated");
  await expect(items.getByRole("listitem").filter({ hasText: "Contoso" })).not.toContainText("suggested");
  await expect(page.getByText("Opening balance")).toBeVisible();
  await checkBothSizes(page, "reconciliation", "statement");

  // A real bank's MT940 file, then the same file again: duplicates only.
  await page.goto("/dashboard/reconciliation");
  const mt940 = readFileSync(join(process.cwd(), "test/fixtures/bank/mt940/betterplace/sepa_mt9401.sta"));
  const { summary: real, figure: realFigure } = await importStatement(page, { name: "sepa_mt9401.sta", mimeType: "text/plain", buffer: mt940 });
  const created = Number(await realFigure("Payments created").textContent());
  expect(created).toBeGreaterThan(5);
  await expect(real).toContainText("mt940");
  await page.getByLabel("Choose a statement file").setInputFiles({ name: "sepa_mt9401.sta", mimeType: "text/plain", buffer: mt940 });
  await expect(realFigure("Duplicates skipped")).toHaveText(String(created));
  await expect(realFigure("Payments created")).toHaveText("0");

  // A CSV whose columns cannot be guessed: the server's 422 is shown, then the mapping form.
  const csv = `Col1;Col2;Col3;Col4\n2026-11-21;12.50;EUR;Csv Payer Ltd\n`;
  await page.getByLabel("Choose a statement file").setInputFiles({ name: "export.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  const refusal = page.getByRole("alert").filter({ hasText: "export.csv could not be imported" });
  await expect(refusal).toContainText("csv_mapping");
  const mapping = page.getByRole("form", { name: "CSV column mapping" });
  await mapping.getByRole("button", { name: "Import with this mapping" }).click();
  await expect(mapping.getByText("Name the booking date column.")).toBeVisible();
  await mapping.getByLabel("Booking date column").fill("Col1");
  await mapping.getByRole("button", { name: "Import with this mapping" }).click();
  await expect(mapping.getByText(/Set `amount`/)).toBeVisible();
  await mapping.getByLabel("Amount column").fill("Col2");
  await mapping.getByLabel("Currency column").fill("Col3");
  await mapping.getByLabel("Counterparty name column").fill("Col4");
  await checkBothSizes(page, "reconciliation", "csv-mapping");
  await mapping.getByRole("button", { name: "Import with this mapping" }).click();
  const csvSummary = page.getByRole("region", { name: "Imported export.csv" });
  await expect(figureOf(csvSummary, "Payments created")).toHaveText("1");
  await expect(row(/^From Csv Payer Ltd/)).toBeVisible();

  // Every statement in the list, newest first.
  await page.getByRole("link", { name: "All statements" }).click();
  await expect(page.getByRole("list", { name: "Bank statements" }).getByRole("listitem")).toHaveCount(4);
  await expectNoAxeViolations(page, "statements list");
});
