import { randomUUID } from "node:crypto";
import { expect, type Locator, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { db } from "../../lib/db/client";
import type { Role } from "../../lib/auth/permissions";
import { TEST_CRON_SECRET } from "../../test/support/server";

// Helpers of the dashboard browser tests. Fixture data goes through the real API (with
// the organization's API key) or, for what the API cannot do (changing a member's role),
// directly through the database the server uses.

export const baseUrl = () => process.env.E2E_BASE_URL!;

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

export async function expectNoAxeViolations(page: Page, label: string) {
  // A refresh after a form's success (router.refresh) streams the page's metadata again: for
  // an instant the document has no <title>. Wait for the refresh and the page's own title (the
  // check fails if it never comes), then audit.
  await expect.poll(() => page.title(), { message: `the ${label} page has a title` }).not.toBe("");
  let r = await new AxeBuilder({ page }).analyze();
  // A refresh still streaming may drop the title again during the audit: audit again (a title
  // that is really missing fails every time).
  for (let i = 0; i < 3 && r.violations.length === 1 && r.violations[0].id === "document-title"; i++) {
    await expect.poll(() => page.title(), { message: `the ${label} page has a title` }).not.toBe("");
    r = await new AxeBuilder({ page }).analyze();
  }
  expect(
    r.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) })),
    `axe violations on ${label}`,
  ).toEqual([]);
}

// No horizontal scrolling of the page itself at the current viewport.
export async function expectNoHorizontalOverflow(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, "page wider than the viewport").toBeLessThanOrEqual(client);
}

// Axe clean and no sideways scrolling at desktop and at 360 px, with a screenshot of each
// (test-results/e2e/<prefix>-<name>-desktop.png and -360px.png); back at desktop size after.
export async function checkBothSizes(page: Page, prefix: string, name: string) {
  const shot = (size: string) => ({ path: `test-results/e2e/${prefix}-${name}-${size}.png`, fullPage: true });
  await expectNoAxeViolations(page, name);
  await page.screenshot(shot("desktop"));
  await page.setViewportSize({ width: 360, height: 800 });
  await expectNoHorizontalOverflow(page);
  await expectNoAxeViolations(page, `${name} at 360 px`);
  await page.screenshot(shot("360px"));
  await page.setViewportSize({ width: 1280, height: 900 });
}

export async function api<T = unknown>(apiKey: string, method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl()}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
      ...(method === "POST" ? { "idempotency-key": randomUUID() } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as T };
}

export type Registered = { invoice: { id: string; reference: string; version: number }; payment_request: { hosted_url: string } };

export async function registerObligation(apiKey: string, over: Record<string, unknown> = {}): Promise<Registered> {
  const r = await api<Registered>(apiKey, "POST", "/obligations", {
    obligation_type: "invoice",
    external_reference: { namespace: "e2e", id: randomUUID() },
    debtor: { name: "Initech GmbH", email: "ap@initech.example" },
    amount_minor: "99000",
    currency: "EUR",
    deadline: "2027-03-31",
    business_context: { invoice_number: `INV-${randomUUID().slice(0, 8)}` },
    ...over,
  });
  expect(r.status).toBe(201);
  return r.body;
}

export async function setRole(organizationId: string, email: string, role: Role) {
  const user = await db().user.findUniqueOrThrow({ where: { email } });
  await db().membership.update({ where: { organizationId_userId: { organizationId, userId: user.id } }, data: { role } });
}

// What the API cannot do quickly: mark every delivery of the organization failed, as after
// its last scheduled attempt (the default schedule takes hours).
export async function failDeliveries(organizationId: string) {
  await db().webhookDelivery.updateMany({
    where: { organizationId },
    data: { status: "failed", nextAttemptAt: null, leaseUntil: null, lastError: "HTTP 500", lastResponseStatus: 500 },
  });
}

// The test server runs without the in-process webhook worker: flush due deliveries
// through the cron route, as a scheduler would.
export async function flushWebhooks(): Promise<void> {
  const res = await fetch(`${baseUrl()}/api/v1/cron/webhooks`, { headers: { authorization: `Bearer ${TEST_CRON_SECRET}` } });
  expect(res.status).toBe(200);
}

// Staff at a desktop width open the inbox from the navigation, whose link announces the
// unread count; returns the link and the inbox's items.
export async function openInbox(page: Page, member: { email: string; password: string }, unread: number) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, member.email, member.password);
  const inboxLink = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /Inbox/ });
  await expect(inboxLink).toHaveAccessibleName(`Inbox (${unread} unread)`);
  await inboxLink.click();
  await expect(page).toHaveURL(/\/dashboard\/inbox$/);
  return { inboxLink, items: page.getByTestId("inbox-item") };
}

// A figure of an import's summary (or any region with a <dl>): the value beside `label`.
export const figureOf = (region: Locator, label: string) =>
  region
    .locator("dl > div")
    .filter({ has: region.page().getByText(label, { exact: true }) })
    .locator("dd");

// A statement file chosen on the Reconciliation page (which must be open); waits for its
// import's summary and returns it with its figures.
export async function importStatement(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByLabel("Choose a statement file").setInputFiles(file);
  const summary = page.getByRole("region", { name: `Imported ${file.name}` });
  await expect(summary).toBeVisible({ timeout: 60_000 });
  return { summary, figure: (label: string) => figureOf(summary, label) };
}
