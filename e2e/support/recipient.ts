import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page, type TestInfo } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { newOrgWithOwner, sessionCookie } from "./fixtures";

// Helpers of the payer-page browser tests: the issuer's side goes through the real API.

const BASE = () => process.env.E2E_BASE_URL as string;

// A call of our API with the given credential headers (an Idempotency-Key on every
// mutation); a refusal fails the test with the envelope.
export async function apiCall(auth: Record<string, string>, method: string, path: string, body?: unknown, form?: FormData) {
  const headers: Record<string, string> = { ...auth };
  if (method !== "GET" && method !== "DELETE") headers["idempotency-key"] = `e2e-${randomUUID()}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${BASE()}/api/v1${path}`, { method, headers, body: form ?? (body === undefined ? undefined : JSON.stringify(body)) });
  const json = (await res.json().catch(() => undefined)) as any;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

// An issuer: its API key, an owner's session cookie (for the session-only endpoints) and
// the owner's credentials (to sign in in the browser).
export type Issuer = { apiKey: string; cookie: string; name: string; email: string; password: string };

export async function newIssuer(name: string): Promise<Issuer> {
  const org = await newOrgWithOwner(name);
  return { apiKey: org.api_key, cookie: await sessionCookie(org.email, org.password), name, email: org.email, password: org.password };
}

// Issue 36's payer: the issuer's EUR payment instructions, five open invoices to Kaufhaus Becker
// KG (RE-2026-001 to -005: 100.00, 200.50, 300.00, 400.00 and 500.00, due in 10 to 14 days)
// and the counterparty's account link.
export const BECKER_IBAN = "DE89370400440532013000";

export async function fiveOpenInvoices(issuer: Issuer): Promise<{ ids: string[]; counterpartyId: string; hostedUrl: string }> {
  await issuerCall(issuer, "PUT", "/payment-instructions/EUR", { account_holder: issuer.name, iban: BECKER_IBAN, bic: "COBADEFFXXX" }, { session: true });
  const ids: string[] = [];
  for (const [i, amount] of ["10000", "20050", "30000", "40000", "50000"].entries()) {
    const r = await issuerCall(issuer, "POST", "/obligations", {
      obligation_type: "invoice",
      external_reference: { namespace: "e2e", id: randomUUID() },
      debtor: { name: "Kaufhaus Becker KG", email: "buchhaltung@becker.example" },
      amount_minor: amount,
      currency: "EUR",
      deadline: dayOffset(10 + i),
      business_context: { invoice_number: `RE-2026-00${i + 1}` },
    });
    ids.push(r.invoice.id);
  }
  const counterparties: { items: { id: string; name: string }[] } = await issuerCall(issuer, "GET", "/counterparties");
  const cp = counterparties.items.find((c) => c.name === "Kaufhaus Becker KG");
  if (!cp) throw new Error("no counterparty Kaufhaus Becker KG");
  const link = await issuerCall(issuer, "POST", `/counterparties/${cp.id}/account-link`, {});
  return { ids, counterpartyId: cp.id, hostedUrl: link.hosted_url };
}

// An invoice the issuer registers: Northwind Traders owes 1,250.50 EUR in 30 days unless
// `fields` say otherwise; its ids, hosted link and version.
export async function registerInvoice(issuer: Issuer, fields: Record<string, unknown> = {}) {
  const r = await issuerCall(issuer, "POST", "/obligations", {
    obligation_type: "invoice",
    external_reference: { namespace: "erp", id: `INV-${randomUUID().slice(0, 8)}` },
    debtor: { name: "Northwind Traders", email: "ap@northwind.example" },
    amount_minor: "125050",
    currency: "EUR",
    deadline: dayOffset(30),
    ...fields,
  });
  return {
    id: r.invoice.id as string,
    requestId: r.payment_request.id as string,
    hostedUrl: r.payment_request.hosted_url as string,
    version: r.invoice.version as number,
  };
}

// A call as the issuer: with its API key, or its session (`session`).
export function issuerCall(issuer: Issuer, method: string, path: string, body?: unknown, opts: { session?: boolean; form?: FormData } = {}) {
  return apiCall(opts.session ? { cookie: issuer.cookie } : { authorization: `Bearer ${issuer.apiKey}` }, method, path, body, opts.form);
}

// The date n days from today (UTC), as YYYY-MM-DD.
export const dayOffset = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

// A payer's phone: 360 px wide, touch, in the given language (German unless said).
export async function phone(browser: Browser, locale = "de-DE") {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, locale, isMobile: true, hasTouch: true });
  return { context, page: await context.newPage() };
}

// No axe violations on the payer's page as it stands (each with the selectors it found).
export async function expectAxeClean(page: Page, label: string) {
  const r = await new AxeBuilder({ page }).analyze();
  expect(
    r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    `axe on ${label}`,
  ).toEqual([]);
}

// A full-page screenshot kept in the test's output and attached to its report.
export async function attachShot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}
