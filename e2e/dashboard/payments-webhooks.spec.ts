import { expect, test } from "@playwright/test";
import { addUser, newOrgWithOwner } from "../support/fixtures";
import { webhookReceiver } from "../support/webhook-receiver";
import { api, expectNoAxeViolations, failDeliveries, registerObligation, signIn } from "../support/dashboard";

test("an owner records a payment and allocates it to an obligation", async ({ page }) => {
  const org = await newOrgWithOwner("Soylent Corp");
  const reg = await registerObligation(org.api_key, { debtor: { name: "Cyberdyne Systems" }, amount_minor: "100000", currency: "EUR" });
  await signIn(page, org.email, org.password);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Payments" }).click();
  await expect(page.getByText("No payments recorded yet.")).toBeVisible();
  await expectNoAxeViolations(page, "payments (empty)");

  const form = page.getByRole("form", { name: "Record a payment" });
  await form.getByLabel("Amount").fill("600");
  await form.getByLabel("Currency").selectOption("EUR");
  await expect(form.getByText("= €600.00")).toBeVisible();
  await form.getByLabel("Payer").fill("Cyberdyne Systems");
  await form.getByLabel("Payment reference").fill("SEPA 2026-11-0042");
  await form.getByRole("button", { name: "Record payment" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payments\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("€600.00 from Cyberdyne Systems");
  await expectNoAxeViolations(page, "payment detail");

  // allocate: the amount is prefilled with what can be allocated
  const alloc = page.getByRole("form", { name: "Allocate to an obligation" });
  await alloc.getByLabel("Obligation").selectOption({ index: 1 });
  await expect(alloc.getByLabel("Amount (EUR)")).toHaveValue("600.00");
  await alloc.getByRole("button", { name: "Allocate" }).click();
  const allocations = page.getByRole("region", { name: "Allocations", exact: true });
  await expect(allocations.getByRole("link", { name: reg.invoice.reference })).toBeVisible();
  await expect(page.locator("dl > div").filter({ has: page.getByText("Left to allocate", { exact: true }) })).toContainText("€0.00");
  await expect(page.getByRole("form", { name: "Allocate to an obligation" })).toHaveCount(0);

  // a second payment larger than what the obligation still needs
  await page.getByRole("link", { name: "Payments", exact: true }).first().click();
  await page.getByRole("form", { name: "Record a payment" }).getByLabel("Amount").fill("500");
  await page.getByRole("form", { name: "Record a payment" }).getByRole("button", { name: "Record payment" }).click();
  await expect(page).toHaveURL(/\/dashboard\/payments\/[0-9a-f-]{36}$/);
  const alloc2 = page.getByRole("form", { name: "Allocate to an obligation" });
  await alloc2.getByLabel("Obligation").selectOption({ index: 1 });
  await expect(alloc2.getByLabel("Amount (EUR)")).toHaveValue("400.00"); // the obligation's outstanding
  await alloc2.getByLabel("Amount (EUR)").fill("500");
  await alloc2.getByRole("button", { name: "Allocate" }).click();
  await expect(alloc2.getByRole("alert")).toContainText("more than is left");

  // the obligation shows where its allocated amount comes from
  await page.goto(`/dashboard/obligations/${reg.invoice.id}`);
  await expect(page.getByText("Partially reconciled", { exact: true })).toBeVisible();
  await expect(page.locator("dl > div").filter({ has: page.getByText("Allocated", { exact: true }) })).toContainText("€600.00");
  await expect(page.getByRole("region", { name: "Payments allocated", exact: true })).toContainText("SEPA 2026-11-0042");
  await expect(page.getByRole("region", { name: "Audit trail", exact: true })).toContainText("Payment allocated");

  // the overview points at what is left to allocate
  await page.goto("/dashboard");
  await expect(page.getByText("Payments to allocate:")).toContainText("€500.00 (1 payment)");
  await expect(page.getByRole("region", { name: "Owed to you", exact: true })).toContainText("€400.00");

  // list
  await page.goto("/dashboard/payments");
  await expect(page.getByRole("list", { name: "Payments" }).getByRole("listitem")).toHaveCount(2);
  await expect(page.getByRole("list", { name: "Payments" })).toContainText("Fully allocated");
  await expect(page.getByRole("list", { name: "Payments" })).toContainText("Unallocated");
  await expectNoAxeViolations(page, "payments list");
});

test.describe("webhooks", () => {
  const receiver = webhookReceiver();

  test("an owner adds an endpoint, sees deliveries and retries a failed one", async ({ page }) => {
    receiver.received.length = 0;
    const org = await newOrgWithOwner("Initrode");
    await signIn(page, org.email, org.password);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page.getByText("No endpoints yet.")).toBeVisible();
    await expectNoAxeViolations(page, "webhooks (empty)");

    const form = page.getByRole("form", { name: "Add a webhook endpoint" });
    const url = receiver.url("/hooks");
    await form.getByLabel("Destination URL").fill(url);
    await form.getByLabel("Signing secret").fill("too-short");
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form.getByText("must be 32 to 256 characters")).toBeVisible();
    await form.getByRole("button", { name: "Generate" }).click();
    await expect(form.getByLabel("Signing secret")).toHaveValue(/^[0-9a-f]{64}$/);
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form.getByText(`Endpoint added. Future events are sent to ${url}.`)).toBeVisible();
    await expect(page.getByRole("region", { name: "Endpoints", exact: true })).toContainText(url);

    // an event is delivered (the flusher runs)
    await registerObligation(org.api_key, { debtor: { name: "Penetrode" } });
    await expect.poll(receiver.flushed, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(receiver.received[0].headers["webhook-signature"]).toMatch(/^v1,/);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByRole("region", { name: "Recent deliveries", exact: true }).textContent();
        },
        { timeout: 20_000 },
      )
      .toContain("Succeeded");
    await expect(page.getByRole("region", { name: "Recent deliveries", exact: true })).toContainText("obligation.registered");
    await expect(page.getByRole("region", { name: "Endpoints", exact: true })).toContainText("Healthy");

    // a delivery that failed (after its last scheduled attempt) can be retried from here
    await failDeliveries(org.organization_id);
    await page.reload();
    const deliveries = page.getByRole("region", { name: "Recent deliveries", exact: true });
    await expect(deliveries).toContainText("Failed");
    await expectNoAxeViolations(page, "webhooks with a failed delivery");
    const before = receiver.received.length;
    await deliveries.getByRole("button", { name: /^Retry/ }).click();
    // The button says "Requeued" until the page refreshes; then the row itself shows the
    // delivery pending again (the button is gone: only failed deliveries have one).
    await expect(deliveries).toContainText(/Requeued|Pending/);
    await expect(deliveries).not.toContainText("Failed");
    await expect.poll(receiver.flushed, { timeout: 20_000 }).toBeGreaterThan(before);
  });

  test("members do not see webhooks; viewers see them read-only", async ({ page }) => {
    const org = await newOrgWithOwner("Chotchkie's");
    await api(org.api_key, "POST", "/webhook-endpoints", { url: "https://hooks.example.com/x", secret: "s".repeat(40) });
    const member = await addUser(org.organization_id, "member");
    await signIn(page, member.email, member.password);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" })).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Payments" })).toBeVisible();
    await page.goto("/dashboard/webhooks");
    await expect(page.getByRole("alert").filter({ hasText: "your role (member) does not allow this page" })).toBeVisible();
    await expect(page.getByText("https://hooks.example.com/x")).toHaveCount(0);

    await page.getByRole("button", { name: "Sign out" }).click();
    const viewer = await addUser(org.organization_id, "viewer");
    await signIn(page, viewer.email, viewer.password);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page.getByRole("region", { name: "Endpoints", exact: true })).toContainText("https://hooks.example.com/x");
    await expect(page.getByRole("form", { name: "Add a webhook endpoint" })).toHaveCount(0);
    await page.goto("/dashboard/payments");
    await expect(page.getByRole("form", { name: "Record a payment" })).toHaveCount(0);
  });
});
