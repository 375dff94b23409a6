import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { db } from "../../lib/db/client";
import { expectNoHorizontalOverflow } from "../support/dashboard";
import { attachShot, dayOffset, expectAxeClean, issuerCall, newIssuer, registerInvoice, type Issuer } from "../support/recipient";

// The hosted payment page in Debian's Chromium at a 360 px wide viewport: a real hosted
// link from a registration (over the API), every recipient action through the page, the
// effects read back through the issuer API; axe on every state; screenshots of each state.

test.use({ viewport: { width: 360, height: 780 } });
// The machine running these is shared and loaded: give each flow time (no timed assertion here).
test.describe.configure({ timeout: 180_000 });

const BASE = () => process.env.E2E_BASE_URL!;
// Every capability the flows handle, kept in a file beside the server log (not in this
// module's memory: a retried test runs in a new worker, which would start with none).
const secretsFile = () => `${process.env.E2E_LOG_FILE!}.secrets`;
const remember = (...values: string[]) => appendFileSync(secretsFile(), values.map((v) => `${v}\n`).join(""));

const today = () => new Date().toISOString().slice(0, 10);
const PDF = Buffer.from("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");

// Registers an obligation with two payment terms and a condition, like an integrator would.
async function register(issuer: Issuer, overrides: Record<string, unknown> = {}) {
  const link = await registerInvoice(issuer, {
    amount_minor: "125000",
    business_context: { invoice_number: "INV-2026-0042", description: "Warehouse fit-out, phase 1" },
    label: "Fit-out phase 1",
    conditions: [{ key: "acceptance", label: "Customer acceptance of phase 1" }],
    payment_terms: [
      { sequence: 1, label: "Deposit", amount_type: "percentage", percentage_basis_points: 3000, trigger_type: "immediately", due_rule: "immediately" },
      {
        sequence: 2,
        label: "On acceptance",
        amount_type: "percentage",
        percentage_basis_points: 7000,
        trigger_type: "condition_satisfied",
        condition_key: "acceptance",
        due_rule: "days_after_trigger",
        due_days: 30,
      },
    ],
    ...overrides,
  });
  remember(link.hostedUrl, new URL(link.hostedUrl).hash.slice(1));
  return link;
}

// Fails on any request to another origin and on any CSP violation or page error.
function guard(page: Page) {
  const problems: string[] = [];
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (!["data:", "blob:"].includes(u.protocol) && u.origin !== new URL(BASE()).origin) problems.push(`third-party request: ${r.url()}`);
  });
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  return problems;
}

async function checkState(page: Page, testInfo: TestInfo, name: string) {
  await expectAxeClean(page, name);
  await expectNoHorizontalOverflow(page);
  await attachShot(page, testInfo, name);
}

test("a recipient opens a hosted link and acts on it; the issuer sees every effect", async ({ page, context }, testInfo) => {
  const issuer = await newIssuer("Acme Fit-outs GmbH");
  const link = await register(issuer);
  // the issuer shares an invoice document and a message before sending the link
  const fd = new FormData();
  fd.append("expected_version", "1");
  fd.append("kind", "invoice");
  fd.append("file", new Blob([new Uint8Array(PDF)]), "INV-2026-0042.pdf");
  const up = await issuerCall(issuer, "POST", `/obligations/${link.id}/documents`, undefined, { form: fd });
  await issuerCall(issuer, "POST", `/obligations/${link.id}/actions`, {
    action: "post_message",
    expected_version: up.invoice.version,
    message: "Thank you for your order! Bank details are on the invoice.",
  });

  const problems = guard(page);
  // every script the page runs: its own bundle, no Next.js runtime, cached immutably
  const scriptResponses: { url: string; cacheControl: string | undefined }[] = [];
  page.on("response", (r) => {
    if (r.request().resourceType() === "script") scriptResponses.push({ url: r.url(), cacheControl: r.headers()["cache-control"] });
  });
  const response = await page.goto(link.hostedUrl);
  expect(response!.status()).toBe(200);
  const h = response!.headers();
  expect(h["referrer-policy"]).toBe("no-referrer");
  expect(h["cache-control"]).toBe("no-store");
  expect(h["x-robots-tag"]).toContain("noindex");
  const csp = h["content-security-policy"];
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}' 'strict-dynamic'/);
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("connect-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("unsafe-inline");
  expect(csp).not.toMatch(/https?:\/\//);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
  // one module script, carrying this response's nonce; no Next.js runtime in the HTML
  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  const html = await response!.text();
  expect(html).not.toContain("/_next/");
  expect([...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]).filter((a) => !a.includes("application/json"))).toEqual([
    expect.stringMatching(new RegExp(`type="module" nonce="${nonce.replace(/[+/=]/g, "\\$&")}" src="/payer-assets/portal-\\w+\\.js"`)),
  ]);

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Acme Fit-outs GmbH");
  // the token left the address bar at once
  expect(new URL(page.url()).hash).toBe("");
  expect(page.url()).toBe(`${BASE()}/r/${link.requestId}`);
  const cookies = await context.cookies(`${BASE()}/api/v1/recipient/contexts/${link.requestId}/invoice`);
  const cookie = cookies.find((c) => c.name === `fos_recipient_${link.requestId}`)!;
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: `/api/v1/recipient/contexts/${link.requestId}` });
  remember(cookie.value);
  expect(await page.evaluate(() => document.cookie)).toBe("");

  // what is owed, in the visitor's locale (en-US in this browser)
  await expect(page.getByTestId("amount")).toHaveText("€1,250.00");
  await expect(page.getByTestId("to-pay-now")).toContainText("€375.00");
  await expect(page.getByText("Awaiting payment", { exact: true })).toBeVisible();
  await expect(page.getByText("INV-2026-0042", { exact: true })).toBeVisible();
  const terms = page.getByRole("region", { name: "Payment terms" });
  await expect(terms.getByRole("listitem")).toHaveCount(2);
  await expect(terms.getByRole("listitem").first()).toContainText("Deposit");
  await expect(terms.getByRole("listitem").first()).toContainText("Due now");
  await expect(terms.getByRole("listitem").nth(1)).toContainText("€875.00");
  await expect(terms.getByRole("listitem").nth(1)).toContainText("Customer acceptance of phase 1");
  await expect(page.getByRole("region", { name: "Conditions" })).toContainText("Waiting");
  await expect(page.getByRole("region", { name: "Messages" })).toContainText("Bank details are on the invoice.");
  await checkState(page, testInfo, "01-ready");
  expect(scriptResponses.length).toBeGreaterThan(0);
  for (const r of scriptResponses) {
    expect(new URL(r.url).pathname, r.url).toMatch(/^\/payer-assets\/[\w-]+\.js$/);
    expect(r.cacheControl, r.url).toBe("public, max-age=31536000, immutable");
  }

  // download the issuer's invoice document
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download INV-2026-0042.pdf" }).click()]);
  expect(download.suggestedFilename()).toBe("INV-2026-0042.pdf");
  expect(readFileSync(await download.path())).toEqual(PDF);

  // acknowledge
  await page.getByRole("button", { name: "Confirm receipt" }).click();
  await expect(page.getByRole("status").filter({ hasText: "can now see that you received" })).toBeVisible();
  await expect(page.getByText("You confirmed that you received this request.")).toBeVisible();

  // share an expected payment date (validation first)
  const shareCard = page.getByRole("region", { name: "When will you pay?" });
  await shareCard.getByRole("button", { name: "Share date" }).click();
  await expect(shareCard.getByText("Enter a date")).toBeVisible();
  await checkState(page, testInfo, "02-validation-error");
  await shareCard.getByLabel("Expected payment date").fill(dayOffset(5));
  await shareCard.getByRole("button", { name: "Share date" }).click();
  await expect(page.getByRole("status").filter({ hasText: "now knows you expect to pay" })).toBeVisible();

  // report a payment
  const report = page.getByRole("region", { name: "Tell us you have paid" });
  await expect(report.getByLabel(/Amount paid/)).toHaveValue("375.00");
  await report.getByLabel(/Amount paid/).fill("1,250.00");
  await report.getByRole("button", { name: "Report payment" }).click();
  await expect(report.getByText("without thousands separators")).toBeVisible();
  await report.getByLabel(/Amount paid/).fill("375.00");
  await report.getByLabel(/Payment reference/).fill("NW-TRF-88121");
  await report.getByLabel(/Note/).fill("Deposit paid from our EUR account.");
  await report.getByRole("button", { name: "Report payment" }).click();
  await expect(page.getByRole("status").filter({ hasText: "has been told about your payment of €375.00" })).toBeVisible();
  await expect(page.getByText("Payment reported", { exact: true })).toBeVisible();

  // write a message
  const messages = page.getByRole("region", { name: "Messages" });
  await messages.getByLabel(/Write a message/).fill("We paid the deposit today.\nThe rest follows after acceptance.");
  await messages.getByRole("button", { name: "Send message" }).click();
  await expect(messages.getByRole("list", { name: "Message thread" }).getByRole("listitem")).toHaveCount(2);
  await expect(messages.getByRole("listitem").nth(1)).toContainText("We paid the deposit today.");

  // upload evidence
  const docs = page.getByRole("region", { name: "Documents" });
  await docs.getByLabel("File").setInputFiles({ name: "transfer-confirmation.pdf", mimeType: "application/pdf", buffer: PDF });
  await docs.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("status").filter({ hasText: "transfer-confirmation.pdf" })).toBeVisible();
  await expect(docs.getByRole("link", { name: "Download transfer-confirmation.pdf" })).toBeVisible();
  // an active-content file is refused with a clear message
  await docs.getByLabel("File").setInputFiles({ name: "evil.pdf", mimeType: "application/pdf", buffer: Buffer.from("<html><script>alert(1)</script></html>") });
  await docs.getByRole("button", { name: "Upload" }).click();
  await expect(docs.getByRole("alert")).toContainText("This type of file is not accepted");
  await checkState(page, testInfo, "03-after-actions");

  // the issuer API shows each effect
  const d = await issuerCall(issuer, "GET", `/obligations/${link.id}`);
  expect(d).toMatchObject({
    status: "PAYMENT_CLAIMED",
    acknowledged: true,
    expected_payment_date: dayOffset(5),
    reported_payment_date: today(),
    allocated_minor: "0",
  });
  expect(d.audit_trail.map((e: any) => e.event_type)).toEqual([
    "obligation.registered",
    "obligation.document_added",
    "obligation.message_posted",
    "obligation.link_opened",
    "obligation.acknowledged",
    "obligation.dates_shared",
    "obligation.payment_reported",
    "obligation.message_posted",
    "obligation.document_added",
  ]);
  expect(d.audit_trail[6].detail).toMatchObject({
    amount_minor: "37500",
    currency: "EUR",
    reference: "NW-TRF-88121",
    note: "Deposit paid from our EUR account.",
  });
  expect(d.messages.at(-1)).toMatchObject({ author_type: "recipient", body: "We paid the deposit today.\nThe rest follows after acceptance." });
  expect(d.documents.map((x: any) => [x.filename, x.uploaded_by, x.kind])).toEqual([
    ["INV-2026-0042.pdf", "issuer", "invoice"],
    ["transfer-confirmation.pdf", "recipient", "payment_evidence"],
  ]);

  // a reload (no fragment) keeps working with the cookie and records no new open
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Acme Fit-outs GmbH");
  await expect(page.getByText("Payment reported", { exact: true })).toBeVisible();
  const after = await issuerCall(issuer, "GET", `/obligations/${link.id}`);
  expect(after.audit_trail.filter((e: any) => e.event_type === "obligation.link_opened")).toHaveLength(1);

  // the issuer revokes the link: the open page turns into the revoked state on its next call
  await issuerCall(issuer, "POST", `/obligations/${link.id}/actions`, { action: "revoke_link", expected_version: after.version });
  await messages.getByLabel(/Write a message/).fill("Are you still there?");
  await messages.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This payment link was withdrawn");
  await checkState(page, testInfo, "04-revoked");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This payment link was withdrawn");
  expect((await issuerCall(issuer, "GET", `/obligations/${link.id}`)).messages).toHaveLength(2);

  expect(problems).toEqual([]);
});

test("clear states: invalid link, expired, paid in full, network error", async ({ page }, testInfo) => {
  const issuer = await newIssuer("Contoso Services Ltd");
  const problems = guard(page);

  // a wrong token
  const wrong = await register(issuer);
  await page.goto(`${BASE()}/r/${wrong.requestId}#not-the-right-token`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link does not work");
  expect(new URL(page.url()).hash).toBe("");
  await checkState(page, testInfo, "05-invalid");
  // a malformed link and a link without token nor session
  await page.goto(`${BASE()}/r/not-a-request`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link does not work");
  await page.goto(`${BASE()}/r/${randomUUID()}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link does not work");

  // expired (expires_at moved into the past in the database)
  const expired = await register(issuer);
  await db().paymentRequest.updateMany({ where: { id: expired.requestId }, data: { expiresAt: new Date(Date.now() - 60_000) } });
  await page.goto(expired.hostedUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This payment link has expired");
  await checkState(page, testInfo, "06-expired");

  // paid in full: the issuer records the payment and allocates it (payments API)
  const paid = await register(issuer, { payment_terms: undefined, conditions: undefined });
  const payment = await issuerCall(issuer, "POST", "/payments", { amount_minor: "125000", currency: "EUR", received_on: today() });
  await issuerCall(issuer, "POST", `/payments/${payment.id}/allocations`, { obligation_id: paid.id, amount_minor: "125000", expected_version: paid.version });
  await page.goto(paid.hostedUrl);
  await expect(page.getByRole("heading", { name: "Paid in full — thank you" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Report payment" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send message" })).toBeVisible();
  await checkState(page, testInfo, "07-paid");

  // network error, then recovery with the same link (the fragment is gone; the token was kept in memory)
  const offline = await register(issuer);
  await page.route("**/api/v1/recipient/**", (route) => route.abort("internetdisconnected"));
  await page.goto(offline.hostedUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("We could not reach the payment page");
  expect(new URL(page.url()).hash).toBe("");
  await checkState(page, testInfo, "08-network-error");
  await page.unroute("**/api/v1/recipient/**");
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contoso Services Ltd");

  expect(problems.filter((p) => !p.includes("ERR_INTERNET_DISCONNECTED"))).toEqual([]);
});

test("two links in one browser keep separate sessions", async ({ context }) => {
  const a = await newIssuer("Alpha Supplies");
  const b = await newIssuer("Beta Logistics");
  const la = await register(a, { amount_minor: "1000", currency: "GBP", payment_terms: undefined, conditions: undefined });
  const lb = await register(b, { amount_minor: "250000", currency: "JPY", payment_terms: undefined, conditions: undefined });
  const pa = await context.newPage();
  const pb = await context.newPage();
  await pa.goto(la.hostedUrl);
  await pb.goto(lb.hostedUrl);
  await expect(pa.getByTestId("amount")).toHaveText("£10.00");
  await expect(pb.getByTestId("amount")).toHaveText("¥250,000");
  // both cookies live side by side; each page keeps working after the other opened
  await pa.reload();
  await expect(pa.getByRole("heading", { level: 1 })).toHaveText("Alpha Supplies");
  await pa.getByRole("button", { name: "Confirm receipt" }).click();
  await expect(pa.getByText("You confirmed that you received this request.")).toBeVisible();
  await pb.reload();
  await expect(pb.getByRole("heading", { level: 1 })).toHaveText("Beta Logistics");
  await expect(pb.getByRole("button", { name: "Confirm receipt" })).toBeVisible();
  expect((await issuerCall(a, "GET", `/obligations/${la.id}`)).acknowledged).toBe(true);
  expect((await issuerCall(b, "GET", `/obligations/${lb.id}`)).acknowledged).toBe(false);
  const names = (await context.cookies()).map((c) => c.name).filter((n) => n.startsWith("fos_recipient"));
  expect(names.sort()).toEqual([`fos_recipient_${la.requestId}`, `fos_recipient_${lb.requestId}`].sort());
  remember(...(await context.cookies()).map((c) => c.value));
});

test("no token, hosted URL or session value of the flows above reached the server log", () => {
  const log = readFileSync(process.env.E2E_LOG_FILE!, "utf8");
  const secrets = new Set(existsSync(secretsFile()) ? readFileSync(secretsFile(), "utf8").split("\n").filter(Boolean) : []);
  expect(secrets.size).toBeGreaterThan(5);
  for (const s of secrets) expect(log.includes(s), "a secret is in the server log").toBe(false);
});
