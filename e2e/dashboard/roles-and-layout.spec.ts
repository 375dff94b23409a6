import { expect, test } from "@playwright/test";
import { addUser, newOrgWithOwner } from "../support/fixtures";
import { api, expectNoAxeViolations, expectNoHorizontalOverflow, registerObligation, setRole, signIn } from "../support/dashboard";

test("a viewer sees everything but no write controls", async ({ page }) => {
  const org = await newOrgWithOwner("Bluth Company");
  const reg = await registerObligation(org.api_key, {
    debtor: { name: "Sitwell Enterprises" },
    conditions: [{ key: "permit", label: "Building permit granted" }],
    payment_terms: [
      { sequence: 1, amount_type: "percentage", percentage_basis_points: 5000, trigger_type: "immediately", due_rule: "immediately" },
      {
        sequence: 2,
        amount_type: "percentage",
        percentage_basis_points: 5000,
        trigger_type: "condition_satisfied",
        condition_key: "permit",
        due_rule: "days_after_trigger",
        due_days: 14,
      },
    ],
  });
  await api(org.api_key, "POST", `/obligations/${reg.invoice.id}/actions`, { action: "post_message", expected_version: 1, message: "Hello from accounting" });
  const viewer = await addUser(org.organization_id, "viewer");
  await signIn(page, viewer.email, viewer.password);

  await expect(page.getByText("viewer", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "New obligation" })).toHaveCount(0);
  await expectNoAxeViolations(page, "overview (viewer)");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Obligations" }).click();
  await expect(page.getByRole("row").filter({ hasText: "Sitwell Enterprises" })).toBeVisible();
  await expect(page.getByRole("link", { name: "New obligation" })).toHaveCount(0);
  await page.getByRole("row").filter({ hasText: "Sitwell Enterprises" }).getByRole("link").first().click();

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sitwell Enterprises");
  await expect(page.getByText("You have read-only access (viewer).")).toBeVisible();
  await expect(page.getByRole("region", { name: "Messages", exact: true })).toContainText("Hello from accounting");
  await expect(page.getByRole("region", { name: "Conditions", exact: true })).toContainText("Building permit granted");
  for (const name of [
    "Mark as sent",
    "Revoke link",
    "Reissue link",
    "Post message",
    "Upload",
    "Save date",
    "Mark satisfied: Building permit granted",
    "Waive: Building permit granted",
  ]) {
    await expect(page.getByRole("button", { name })).toHaveCount(0);
  }
  await expect(page.getByLabel("New message to the recipient")).toHaveCount(0);
  // the hosted URL is a write capability (docs/security.md): a viewer sees the link's state only
  await expect(page.getByRole("button", { name: "Copy link" })).toHaveCount(0);
  await expect(page.getByText("Only members who can change obligations can copy the link")).toBeVisible();
  await expectNoAxeViolations(page, "obligation detail (viewer)");

  // The registration page is not available to the role, and says the role may be why
  await page.goto("/dashboard/obligations/new");
  await expect(page.getByRole("alert").filter({ hasText: "your role (viewer) does not allow this page" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Register obligation" })).toHaveCount(0);
  await expectNoAxeViolations(page, "new obligation (viewer)");

  // Contexts: read, no creation form
  await page.goto("/dashboard/contexts");
  await expect(page.getByRole("form", { name: "New business context" })).toHaveCount(0);
});

test("a role taken away while the page is open gets a clear 403 message", async ({ page }) => {
  const org = await newOrgWithOwner("Pied Piper");
  const reg = await registerObligation(org.api_key, { debtor: { name: "Hooli" } });
  await signIn(page, org.email, org.password);
  await page.goto(`/dashboard/obligations/${reg.invoice.id}`);
  await expect(page.getByRole("button", { name: "Mark as sent" })).toBeVisible();

  await setRole(org.organization_id, org.email, "viewer");
  await page.getByRole("button", { name: "Mark as sent" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Your role does not allow this change." })).toBeVisible();
  const o = await api<{ status: string; version: number }>(org.api_key, "GET", `/obligations/${reg.invoice.id}`);
  expect(o.body).toMatchObject({ status: "OBLIGATION_CAPTURED", version: 1 });

  // after a reload the controls are gone
  await page.reload();
  await expect(page.getByRole("button", { name: "Mark as sent" })).toHaveCount(0);
});

test("list and detail work at 360 px", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  const org = await newOrgWithOwner("Narrow Screens Ltd");
  const reg = await registerObligation(org.api_key, {
    debtor: {
      name: "Very Long Counterparty Name Incorporated International Holdings",
      email: "accounts.payable.department@very-long-counterparty-name.example",
    },
    amount_minor: "123456789012",
    business_context: {
      invoice_number: "INV-2026-000000000001",
      description: "A description long enough to wrap over several lines on a small phone screen without breaking the layout.",
    },
  });
  await api(org.api_key, "POST", `/obligations/${reg.invoice.id}/actions`, { action: "post_message", expected_version: 1, message: "x".repeat(120) });
  await signIn(page, org.email, org.password);
  await expectNoHorizontalOverflow(page);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Obligations" }).click();
  const cardList = page.getByRole("list", { name: "Obligations" });
  await expect(cardList).toBeVisible();
  await expect(page.getByRole("table")).toBeHidden(); // the table is for wider screens
  await expect(cardList.getByRole("listitem").first()).toContainText("€1,234,567,890.12");
  await expectNoHorizontalOverflow(page);
  await expectNoAxeViolations(page, "obligations list at 360 px");

  await cardList.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/obligations/${reg.invoice.id}$`));
  // small screens show the link and its actions before the long record
  const top = (l: import("@playwright/test").Locator) => l.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
  expect(await top(page.getByRole("button", { name: "Mark as sent" }))).toBeLessThan(
    await top(page.getByRole("region", { name: "Payment terms", exact: true })),
  );
  await expectNoHorizontalOverflow(page);
  await expectNoAxeViolations(page, "obligation detail at 360 px");

  await page.getByRole("button", { name: "Mark as sent" }).click();
  await expect(page.getByText("Marked as sent. Status: payment requested.")).toBeVisible();
  await expectNoHorizontalOverflow(page);

  await page.goto("/dashboard/obligations/new");
  await expectNoHorizontalOverflow(page);
  await page.getByRole("button", { name: "Add payment term" }).click();
  await expectNoHorizontalOverflow(page);
});

test("business contexts: create, relate, see linked obligations and totals", async ({ page }) => {
  const org = await newOrgWithOwner("Dunder Mifflin");
  await signIn(page, org.email, org.password);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contexts" }).click();
  await expect(page.getByText("No business contexts yet.")).toBeVisible();
  await expectNoAxeViolations(page, "contexts (empty)");

  const form = page.getByRole("form", { name: "New business context" });
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form.getByText("Enter a name.")).toBeVisible();
  await form.getByLabel("Type").selectOption("company");
  await form.getByLabel("Name").fill("Scranton Business Park");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form.getByText("“Scranton Business Park” created.")).toBeVisible();
  await form.getByLabel("Type").selectOption("project");
  await form.getByLabel("Name").fill("Warehouse refit");
  await form.getByLabel("Reference").fill("PRJ-7");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("link", { name: "Warehouse refit" })).toBeVisible();

  // link an obligation to the project through the API, then look at the project
  const list = await api<{ items: { id: string; name: string }[] }>(org.api_key, "GET", "/business-contexts");
  const project = list.body.items.find((c) => c.name === "Warehouse refit")!;
  await registerObligation(org.api_key, { amount_minor: "250000", context_ids: [project.id], debtor: { name: "Vance Refrigeration" } });

  // search
  await page.getByLabel("Search name or reference").fill("prj-7");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByRole("link", { name: "Warehouse refit" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Scranton Business Park" })).toHaveCount(0);

  await page.getByRole("link", { name: "Warehouse refit" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Warehouse refit");
  await expect(page.getByRole("region", { name: "Totals", exact: true })).toContainText("€2,500.00 outstanding");
  await expect(page.getByRole("region", { name: "Obligations", exact: true })).toContainText("€2,500.00");

  const rel = page.getByRole("form", { name: "Add a relationship" });
  await rel.getByLabel("Related context").selectOption({ label: "Scranton Business Park (Company)" });
  await rel.getByLabel("Relationship").fill("belongs_to");
  await rel.getByRole("button", { name: "Add" }).click();
  await expect(rel.getByText("Relationship added.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Relationships", exact: true })).toContainText("This belongs_to Scranton Business Park");
  await expectNoAxeViolations(page, "context detail");

  await page.getByRole("region", { name: "Relationships", exact: true }).getByRole("link", { name: "Scranton Business Park" }).click();
  await expect(page.getByRole("region", { name: "Relationships", exact: true })).toContainText("Warehouse refit belongs_to this");

  // attach the company to the obligation from the obligation's page, with an attributed part
  await page.goto("/dashboard/obligations");
  await page.getByRole("row").filter({ hasText: "Vance Refrigeration" }).getByRole("link").first().click();
  const contexts = page.getByRole("region", { name: "Business contexts", exact: true });
  await expect(contexts).toContainText("Warehouse refit");
  const link = page.getByRole("form", { name: "Link a business context" });
  await link.getByLabel("Link a context").selectOption({ label: "Scranton Business Park (Company)" });
  await link.getByLabel("Relationship").fill("customer_site");
  await link.getByLabel("Attributed (EUR)").fill("1000.5");
  await link.getByRole("button", { name: "Link context" }).click();
  // No "Context linked." check: that was the last context to link, so the refreshed page
  // drops the form (and its message); the list below is the lasting effect.
  await expect(contexts).toContainText("Scranton Business Park");
  await expect(contexts).toContainText("customer_site · €1,000.50");
  await expect(page.getByRole("region", { name: "Audit trail", exact: true })).toContainText("Context linked");
});

test("another organization's obligation is not found", async ({ page }) => {
  const mine = await newOrgWithOwner("Mine Ltd");
  const theirs = await newOrgWithOwner("Theirs Ltd");
  const reg = await registerObligation(theirs.api_key, { debtor: { name: "Secret Customer" } });
  await signIn(page, mine.email, mine.password);
  // nothing of theirs in my overview, list or activity
  await expect(page.getByRole("region", { name: "Owed to you", exact: true })).toContainText("Nothing outstanding");
  await expect(page.getByRole("region", { name: "Recent activity", exact: true })).toContainText("No activity yet.");
  await page.goto("/dashboard/obligations");
  await expect(page.getByText("No obligations yet.")).toBeVisible();
  const res = await page.goto(`/dashboard/obligations/${reg.invoice.id}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expect(page.getByText("Secret Customer")).toHaveCount(0);
  await page.goto("/dashboard/obligations/not-a-uuid");
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await expectNoAxeViolations(page, "not found");
});
