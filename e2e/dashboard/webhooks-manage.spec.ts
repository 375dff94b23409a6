import { expect, test, type Page } from "@playwright/test";
import { newOrgWithOwner } from "../support/fixtures";
import { webhookReceiver } from "../support/webhook-receiver";
import { api, expectNoAxeViolations, expectNoHorizontalOverflow, flushWebhooks, signIn } from "../support/dashboard";

// A clerk manages a webhook endpoint from the dashboard (docs/obligations.md, Lifecycle): sends a test
// event, edits its address, events and secret, disables and enables it, and deletes it
// behind a confirmation. At desktop width and at 360 px, axe-clean, with screenshots.

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/e2e/webhooks-${name}.png`, fullPage: true });

const receiver = webhookReceiver();
const receiverUrl = receiver.url;

for (const [label, viewport] of [
  ["desktop", { width: 1280, height: 900 }],
  ["360", { width: 360, height: 800 }],
] as const) {
  test(`an owner tests, edits, disables, enables and deletes an endpoint (${label})`, async ({ page }) => {
    receiver.received.length = 0;
    await page.setViewportSize(viewport);
    const org = await newOrgWithOwner(`Hooli ${label}`);
    const url = receiverUrl(`/hooks-${label}`);
    expect((await api(org.api_key, "POST", "/webhook-endpoints", { url, secret: "s".repeat(40) })).status).toBe(201);
    await signIn(page, org.email, org.password);
    await page.goto("/dashboard/webhooks");
    const endpoints = page.getByRole("region", { name: "Endpoints", exact: true });
    const deliveries = page.getByRole("region", { name: "Recent deliveries", exact: true });
    await expect(endpoints).toContainText(url);
    await expect(endpoints).toContainText("Sends every event.");

    // a test event: queued, delivered, listed
    await endpoints.getByRole("button", { name: `Send test event for ${url}` }).click();
    await expect(endpoints.getByText("Test event queued. Its delivery appears under Recent deliveries.")).toBeVisible();
    await expect
      .poll(
        async () => {
          await flushWebhooks();
          return receiver.received.map((r) => JSON.parse(r.body).type);
        },
        { timeout: 20_000 },
      )
      .toEqual(["webhook.test"]);
    await expect
      .poll(
        async () => {
          await page.reload();
          return deliveries.textContent();
        },
        { timeout: 20_000 },
      )
      .toContain("Succeeded");
    await expect(deliveries).toContainText("webhook.test");

    // edit: a wrong address is refused in words, then events chosen and a new secret
    await endpoints.getByRole("button", { name: `Edit for ${url}` }).click();
    const form = page.getByRole("form", { name: /^Edit the endpoint / });
    await form.getByLabel("Destination URL").fill("not an address");
    await form.getByRole("button", { name: "Save changes" }).click();
    await expect(form.getByText("must be an absolute http or https URL")).toBeVisible();
    await expect(form).not.toContainText("body.");
    await form.getByLabel("Destination URL").fill(`${url}/v2`);
    await form.getByText("Events to send: every event").click();
    await form.getByRole("checkbox", { name: /^Overdue/ }).check();
    await form.getByRole("checkbox", { name: /^Payment allocated/ }).check();
    await expect(form.getByText("Events to send: 2 chosen")).toBeVisible();
    await form.getByRole("button", { name: "Generate a new secret" }).click();
    await expect(form.getByLabel("New signing secret (optional)")).toHaveValue(/^[0-9a-f]{64}$/);
    await expectNoAxeViolations(page, `webhooks, editing (${label})`);
    await expectNoHorizontalOverflow(page);
    await shot(page, `edit-${label}`);
    await form.getByRole("button", { name: "Save changes" }).click();
    await expect(form.getByText("Saved. For the next 24 hours deliveries carry both signatures")).toBeVisible();
    await expect(endpoints).toContainText(`${url}/v2`);
    await expect(endpoints).toContainText("Sends Overdue, Payment allocated.");
    await expect(endpoints).toContainText("deliveries also carry the previous secret's signature until");
    const [ep] = (await api<{ items: { event_types: string[]; url: string }[] }>(org.api_key, "GET", "/webhook-endpoints")).body.items;
    expect(ep.event_types.sort()).toEqual(["obligation.overdue", "payment.allocated"]);
    expect(ep.url).toBe(`${url}/v2`);
    const moved = `${url}/v2`;
    await form.getByRole("button", { name: "Cancel" }).click();
    await expect(form).toHaveCount(0);
    await expect(endpoints.getByRole("button", { name: `Edit for ${moved}` })).toBeFocused();

    // disable and enable
    await endpoints.getByRole("button", { name: `Disable for ${moved}` }).click();
    await expect(endpoints.getByText("Disabled. It receives no new events")).toBeVisible();
    await expect(endpoints).toContainText("Disabled: disabled by a person of the organization.");
    await expectNoAxeViolations(page, `webhooks, disabled (${label})`);
    await shot(page, `disabled-${label}`);
    await endpoints.getByRole("button", { name: `Enable for ${moved}` }).click();
    await expect(endpoints.getByText("Enabled. It receives the events that happen from now on.")).toBeVisible();
    await expect(endpoints).toContainText("Healthy");

    // delete, behind a confirmation that says what it does; Cancel keeps it
    await endpoints.getByRole("button", { name: `Delete for ${moved}` }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this endpoint?" });
    await expect(dialog).toContainText("Deliveries still waiting for it are cancelled");
    await expectNoAxeViolations(page, `webhooks, delete dialog (${label})`);
    await shot(page, `delete-${label}`);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(endpoints).toContainText(moved);
    await endpoints.getByRole("button", { name: `Delete for ${moved}` }).click();
    await dialog.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(endpoints.getByText("No endpoints yet.")).toBeVisible();
    await expect(deliveries).toContainText("webhook.test → a deleted endpoint");
    expect((await api<{ items: unknown[] }>(org.api_key, "GET", "/webhook-endpoints")).body.items).toEqual([]);

    // a new endpoint with a choice of events
    const add = page.getByRole("form", { name: "Add a webhook endpoint" });
    await add.getByLabel("Destination URL").fill(receiverUrl(`/new-${label}`));
    await add.getByRole("button", { name: "Generate" }).click();
    await add.getByText("Events to send: every event").click();
    await add.getByRole("checkbox", { name: /^Payment recorded/ }).check();
    await add.getByRole("button", { name: "Add endpoint" }).click();
    await expect(add.getByText("Endpoint added.")).toBeVisible();
    await expect(endpoints).toContainText("Sends Payment recorded.");
    await expectNoAxeViolations(page, `webhooks, filtered endpoint (${label})`);
    await expectNoHorizontalOverflow(page);
    await shot(page, `page-${label}`);
  });
}
