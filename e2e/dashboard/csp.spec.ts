import { expect, test, type Page } from "@playwright/test";
import { newOrgWithOwner } from "../support/fixtures";
import { api, signIn } from "../support/dashboard";

// The dashboard and the sign-in page carry a Content-Security-Policy with a fresh nonce
// (docs/security.md) and still work in Chromium: signing in, the overview, an obligation
// page with its client islands (copy the link, post a message) and signing out, with no CSP
// violation reported anywhere on the way.
function watchViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(m.text())) seen.push(m.text());
  });
  page.on("pageerror", (e) => seen.push(`pageerror: ${e.message}`));
  return seen;
}

// Records securitypolicyviolation events in every document the page loads.
async function recordViolationEvents(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const w = window as unknown as { __cspViolations?: string[] };
      w.__cspViolations = [...(w.__cspViolations ?? []), `${e.violatedDirective} ${e.blockedURI}`];
    });
  });
}
const violationEvents = (page: Page) => page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []);

test("sign-in and dashboard pages carry a nonce CSP and work without a violation", async ({ page, context }) => {
  const org = await newOrgWithOwner("Policy Traders");
  const reg = await api<{ obligation: { id: string } }>(org.api_key, "POST", "/obligations", {
    obligation_type: "invoice",
    external_reference: { namespace: "erp", id: `CSP-${Date.now()}` },
    debtor: { name: "Northwind Traders", email: "ap@northwind.example" },
    amount_minor: "125000",
    currency: "EUR",
    deadline: "2030-01-31",
    business_context: { invoice_number: "CSP-1" },
  });
  expect(reg.status).toBe(201);
  const violations = watchViolations(page);
  await recordViolationEvents(page);

  const nonces = new Set<string>();
  const expectCsp = async (path: string) => {
    const res = await page.goto(path);
    const csp = (await res!.allHeaders())["content-security-policy"] ?? "";
    const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]{20,})' 'strict-dynamic'/.exec(csp)?.[1];
    expect(nonce, `${path}: ${csp}`).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'none'");
    nonces.add(nonce!);
    // every script element of the document carries it (the browser hides the attribute's
    // value from getAttribute; the property keeps it)
    const scriptNonces = await page.evaluate(() => [...document.scripts].map((s) => s.nonce));
    expect(scriptNonces.length).toBeGreaterThan(0);
    for (const n of scriptNonces) expect(n).toBe(nonce);
    expect(await violationEvents(page), path).toEqual([]);
  };

  await expectCsp("/login");
  await signIn(page, org.email, org.password);
  await expectCsp("/dashboard");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectCsp(`/dashboard/obligations/${reg.body.obligation.id}`);

  // client islands work under the policy: reveal the link, post a message
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByText(/Link copied|Copy it from the field below/)).toBeVisible();
  await page.getByLabel("New message to the recipient").fill("Sent under a strict policy");
  await page.getByRole("button", { name: "Post message" }).click();
  await expect(page.getByText("Sent under a strict policy").first()).toBeVisible();
  expect(await violationEvents(page)).toEqual([]);

  await expectCsp("/dashboard/obligations");
  // An unknown dashboard address: the dashboard's own 404 under the same policy (its runtime
  // adds chunk scripts without a nonce, trusted by 'strict-dynamic'): no violation.
  const missing = await page.goto("/dashboard/no-such-page");
  expect(missing!.status()).toBe(404);
  expect((await missing!.allHeaders())["content-security-policy"]).toContain("'strict-dynamic'");
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to obligations" }).click();
  await expect(page).toHaveURL(/\/dashboard\/obligations$/);
  expect(await violationEvents(page)).toEqual([]);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(nonces.size).toBe(4);
  expect(violations).toEqual([]);
});
