import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { newOrgWithOwner } from "../support/fixtures";
import { api, expectNoAxeViolations, expectNoHorizontalOverflow, registerObligation, signIn } from "../support/dashboard";
import { parseCsv } from "../../test/support/csv";

// The overview's charts and the obligations list as a user works them: obligations with
// known deadlines and amounts are registered through the API, the charts' tables are read,
// the list is filtered, searched and sorted through its form (keyboard only), and the CSV
// export of the filtered list is downloaded and compared with the API.

const addDays = (n: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/e2e/overview-list-${name}-360.png`, fullPage: true });

// The cells of a chart's table row, by its row header.
async function row(page: Page, table: string, header: string | RegExp) {
  const r = page
    .getByRole("table", { name: table, exact: true })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: header }) });
  return (await r.getByRole("cell").allInnerTexts()).map((t) => t.trim());
}

// The references shown in the list (the table of the wide layout).
const listed = async (page: Page) =>
  (
    await page
      .getByRole("table", { name: /^Obligations/ })
      .locator("tbody tr td:first-child a")
      .allInnerTexts()
  ).map((t) => t.trim());

type Ob = { id: string; reference: string; amount_minor: string; allocated_minor: string; payment_reference: string };

test("an owner reads the charts, filters, searches and sorts the list, and exports it", async ({ page }) => {
  test.setTimeout(240_000);
  const org = await newOrgWithOwner("Overview Charts Ltd");
  const key = org.api_key;
  const reg = async (over: Record<string, unknown>) => {
    const r = await registerObligation(key, over);
    return (await api<Ob>(key, "GET", `/obligations/${r.invoice.id}`)).body;
  };
  const alpha = await reg({ amount_minor: "100000", deadline: addDays(-10), debtor: { name: "Alpha Handels GmbH", email: "billing@alpha.example" } });
  const beta = await reg({ amount_minor: "25050", deadline: addDays(3), debtor: { name: "Beta Shipping", email: "ap@beta.example" } });
  const gamma = await reg({ amount_minor: "7500", deadline: addDays(-45), debtor: { name: "=Gamma+Formula", email: "x@gamma.example" } });
  const delta = await reg({
    organization_role: "debtor",
    creditor: { name: "Delta Landlord" },
    debtor: undefined,
    amount_minor: "9900",
    currency: "USD",
    deadline: addDays(-100),
  });
  const eps = await reg({ amount_minor: "1234", deadline: addDays(20), debtor: { name: "Epsilon Retail" } });

  await signIn(page, org.email, org.password);

  // The charts' tables: the same numbers as the registered obligations
  const agingEur = "Aging, owed to you, EUR";
  await expect(page.getByRole("table", { name: agingEur, exact: true })).toBeVisible();
  expect(await row(page, agingEur, "Not yet due")).toEqual(["2", "€262.84"]);
  expect(await row(page, agingEur, "1–30 days")).toEqual(["1", "€1,000.00"]);
  expect(await row(page, agingEur, "31–60 days")).toEqual(["1", "€75.00"]);
  expect(await row(page, agingEur, "Over 90 days")).toEqual(["0", "€0.00"]);
  expect(await row(page, agingEur, "Total")).toEqual(["4", "€1,337.84"]);
  expect(await row(page, "Aging, you owe, USD", "Over 90 days")).toEqual(["1", "$99.00"]);
  const cashEur = "Cash expected, owed to you, EUR";
  expect(await row(page, cashEur, /^Late/)).toEqual(["2", "€1,075.00"]);
  expect(await row(page, cashEur, /^Week 1 /)).toEqual(["1", "€250.50"]);
  expect(await row(page, cashEur, /^Week 3 /)).toEqual(["1", "€12.34"]);
  expect(await row(page, cashEur, /^Week 2 /)).toEqual(["0", "€0.00"]);
  // each chart is an image named by its title and its values (aria-labelledby: <title> <desc>)
  const img = page.getByRole("img", { name: /^Aging, owed to you, EUR/ });
  await expect(img).toBeVisible();
  await expect(img).toHaveAccessibleName(/1–30 days: €1,000\.00; 31–60 days: €75\.00/);
  await expectNoAxeViolations(page, "overview with charts");

  // The list: search by name, with the keyboard only (Enter submits the GET form)
  await page.goto("/dashboard/obligations");
  await expectNoAxeViolations(page, "obligations list");
  await page.getByRole("searchbox", { name: "Search" }).focus();
  await page.keyboard.type("alpha handels");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/search=alpha\+handels/);
  await expect(page.getByText("1 obligation matches the filters.")).toBeVisible();
  expect(await listed(page)).toEqual([alpha.reference]);

  // by payment reference, written in groups of four as on a bank statement
  await page.getByRole("searchbox", { name: "Search" }).fill(beta.payment_reference.replace(/(.{4})/g, "$1 ").trim());
  await page.getByRole("button", { name: "Apply" }).press("Enter");
  await expect(page.getByText("1 obligation matches the filters.")).toBeVisible();
  expect(await listed(page)).toEqual([beta.reference]);

  // filters: overdue receivables, largest outstanding first (Tab through the form)
  await page.getByRole("searchbox", { name: "Search" }).fill("");
  await page.getByLabel("Direction").selectOption("creditor");
  await page.getByLabel("Deadline").selectOption("true");
  await page.getByLabel("Sort by").selectOption("outstanding");
  await page.getByLabel("Order").focus();
  await page.getByLabel("Order").selectOption("desc");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Apply" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/role=creditor/);
  await expect(page).toHaveURL(/overdue=true/);
  expect(await listed(page)).toEqual([alpha.reference, gamma.reference]);
  await expect(page.getByLabel("Deadline")).toHaveValue("true");

  // sort by amount ascending, everything: grouped by currency (A–Z), never mixed
  await page.goto("/dashboard/obligations?sort=amount&direction=asc");
  expect(await listed(page)).toEqual([eps.reference, gamma.reference, beta.reference, alpha.reference, delta.reference]);
  await expect(page.getByText("5 obligations. Smallest amount first within each currency, currencies in alphabetical order.", { exact: true })).toBeVisible();
  await page.goto("/dashboard/obligations?currency=USD");
  expect(await listed(page)).toEqual([delta.reference]);
  // back and forward keep the filters (they live in the address)
  await page.goBack();
  expect(await listed(page)).toEqual([eps.reference, gamma.reference, beta.reference, alpha.reference, delta.reference]);
  await expect(page.getByLabel("Sort by")).toHaveValue("amount");
  await page.goForward();
  await expect(page.getByLabel("Currency")).toHaveValue("USD");

  // nothing matches: a clear empty state with a way back
  await page.goto("/dashboard/obligations?search=no-such-obligation");
  await expect(page.getByText("No obligations match these filters.")).toBeVisible();
  await expectNoAxeViolations(page, "obligations list, nothing matches");
  await page.getByRole("link", { name: "Clear the filters" }).click();
  await expect(page).toHaveURL(/\/dashboard\/obligations$/);

  // the CSV export of a filtered list (EUR, overdue first by deadline)
  await page.goto("/dashboard/obligations?currency=EUR&sort=deadline");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: /Export CSV/ }).click()]);
  expect(download.suggestedFilename()).toMatch(/^obligations-\d{4}-\d{2}-\d{2}\.csv$/);
  const rows = parseCsv(readFileSync((await download.path())!, "utf8"));
  const head = rows[0];
  const col = (r: string[], name: string) => r[head.indexOf(name)];
  const fromApi = (await api<{ items: Ob[] }>(key, "GET", "/obligations?currency=EUR&sort=deadline&limit=100")).body.items;
  expect(rows.slice(1).map((r) => col(r, "reference"))).toEqual(fromApi.map((o) => o.reference));
  expect(rows.slice(1).map((r) => col(r, "amount"))).toEqual(["75.00", "1000.00", "250.50", "12.34"]);
  expect(rows.slice(1).map((r) => col(r, "counterparty_name"))).toEqual(["'=Gamma+Formula", "Alpha Handels GmbH", "Beta Shipping", "Epsilon Retail"]);

  // 360 px: no sideways scrolling, screenshots of both pages
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/dashboard");
  await expectNoHorizontalOverflow(page);
  await expectNoAxeViolations(page, "overview at 360 px");
  await shot(page, "overview");
  await page.goto("/dashboard/obligations?role=creditor&sort=deadline");
  await expectNoHorizontalOverflow(page);
  await expectNoAxeViolations(page, "list at 360 px");
  await shot(page, "list");
});
