// Lighthouse (mobile, its default simulated slow-4G and 4x CPU throttling) on the hosted
// payer page /r/{request} and the payer's account page /a/{account}, against a freshly
// started production build (PGlite, or PostgreSQL with TEST_DATABASE_URL). Registers an
// obligation whose currency has payment instructions (so the page shows how to pay and the
// EPC QR code) and opens its real link; for the account page, five open invoices of one
// counterparty and its account link:
//
//   CHROME_PATH=/usr/bin/chromium npx tsx scripts/bench/recipient-lighthouse.ts [runs=3] [payer|account|both]
//
// Prints per run and as the median: performance and accessibility scores, largest
// contentful paint, total blocking time, cumulative layout shift; then the page's
// JavaScript: the scripts in the HTML (first load: the module script and the chunks it
// modulepreloads) and every script the page loaded until
// the invoice was shown, each as the sum of gzip sizes (zlib level 6 of the served bytes),
// and the machine's load (`uptime`) before and after.
import { execSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import lighthouse from "lighthouse";
import * as chromeLauncher from "chrome-launcher";
import { createTestDatabase, startServer, TEST_APP_SECRET } from "../../test/support/server";

const runs = Math.max(1, Math.min(9, Number(process.argv[2] ?? 3)));
const which = process.argv[3] ?? "both";
if (!["payer", "account", "both"].includes(which)) throw new Error(`page: payer, account or both, not ${which}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

async function setUp(baseUrl: string) {
  const { createOrganization } = await import("@/lib/organizations/create-organization");
  const email = `bench-${randomUUID()}@example.test`;
  const org = await createOrganization({ name: "Acme Consulting GmbH", ownerEmail: email, ownerPassword: "bench-password-123", ownerName: "Bench" });
  const signIn = await fetch(`${baseUrl}/api/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: "bench-password-123" }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const put = await fetch(`${baseUrl}/api/v1/payment-instructions/EUR`, {
    method: "PUT",
    headers: { cookie, "content-type": "application/json", "idempotency-key": `bench-${randomUUID()}` },
    body: JSON.stringify({
      account_holder: "Acme Consulting GmbH",
      iban: "DE89370400440532013000",
      bic: "COBADEFFXXX",
      bank_name: "Commerzbank",
      note: "Please quote the payment reference.",
    }),
  });
  if (!put.ok) throw new Error(`PUT payment instructions: ${put.status} ${await put.text()}`);
  const payer = await fetch(`${baseUrl}/api/v1/obligations`, {
    method: "POST",
    headers: { authorization: `Bearer ${org.api_key}`, "content-type": "application/json", "idempotency-key": `bench-${randomUUID()}` },
    body: JSON.stringify({
      obligation_type: "invoice",
      external_reference: { namespace: "bench", id: randomUUID() },
      debtor: { name: "Northwind Traders" },
      amount_minor: "125050",
      currency: "EUR",
      deadline: "2030-12-31",
      business_context: { invoice_number: "INV-BENCH-1", description: "Consulting, November" },
    }),
  }).then((r) => r.json());
  return { payerUrl: payer.payment_request.hosted_url as string, accountUrl: () => accountLink(baseUrl, org.api_key) };
}

// Five open invoices of one counterparty (a payer's usual account) and its account link.
async function accountLink(baseUrl: string, apiKey: string): Promise<string> {
  const call = async (method: string, p: string, body?: unknown) => {
    const r = await fetch(`${baseUrl}/api/v1${p}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": "application/json",
        ...(method === "POST" ? { "idempotency-key": `bench-${randomUUID()}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  for (const [i, amount] of ["10000", "20050", "30000", "40000", "50000"].entries()) {
    await call("POST", "/obligations", {
      obligation_type: "invoice",
      external_reference: { namespace: "bench", id: randomUUID() },
      debtor: { name: "Kaufhaus Becker KG", email: "buchhaltung@becker.example" },
      amount_minor: amount,
      currency: "EUR",
      deadline: `2030-12-${String(10 + i).padStart(2, "0")}`,
      business_context: { invoice_number: `RE-BENCH-${i + 1}`, description: "Consulting, November" },
    });
  }
  const cp = (await call("GET", "/counterparties?q=becker")).items[0];
  return (await call("POST", `/counterparties/${cp.id}/account-link`, {})).hosted_url as string;
}

async function gzipSize(url: string, cache: Map<string, number>): Promise<number> {
  if (!cache.has(url)) cache.set(url, gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer()), { level: 6 }).length);
  return cache.get(url)!;
}

type Row = { perf: number; a11y: number; lcp: number; tbt: number; cls: number; fcp: number; jsFirst: number; jsAll: number; scripts: number };

// `runs` Lighthouse runs of one page; prints each run and the medians.
async function measure(label: string, hostedUrl: string, baseUrl: string, port: number, sizes: Map<string, number>) {
  console.log(`\n${label}`);
  const rows: Row[] = [];
  const html = await (await fetch(hostedUrl.split("#")[0])).text();
  // The first load: every script the HTML names (module scripts and the chunks it
  // modulepreloads, i.e. the entry's static imports); module browsers skip a nomodule script.
  const scriptSrcs = [...html.matchAll(/<script([^>]*)>/g)]
    .filter((m) => !/\bnoModule\b|\bnomodule\b/.test(m[1]))
    .map((m) => /\ssrc="([^"]+)"/.exec(m[1])?.[1]);
  const preloads = [...html.matchAll(/<link([^>]*)>/g)].filter((m) => /\brel="modulepreload"/.test(m[1])).map((m) => /\shref="([^"]+)"/.exec(m[1])?.[1]);
  const inHtml = [...new Set([...scriptSrcs, ...preloads].filter((src): src is string => !!src))].map(
    (src) => new URL(src.replace(/&amp;/g, "&"), baseUrl).href,
  );
  for (let i = 0; i < runs; i++) {
    const r = await lighthouse(hostedUrl, { port, output: "json", logLevel: "error", onlyCategories: ["performance", "accessibility"] });
    const lhr = r!.lhr;
    // LH_REPORT_DIR=dir keeps each run's Lighthouse JSON (long tasks, LCP element, request chain)
    // and its trace (what each main-thread task did)
    if (process.env.LH_REPORT_DIR) {
      mkdirSync(process.env.LH_REPORT_DIR, { recursive: true });
      const name = `${label.split(" ")[0]}-run-${i + 1}`;
      writeFileSync(path.join(process.env.LH_REPORT_DIR, `${name}.json`), JSON.stringify(lhr));
      const trace = (r!.artifacts as { Trace?: unknown }).Trace;
      if (trace) writeFileSync(path.join(process.env.LH_REPORT_DIR, `${name}.trace.json`), JSON.stringify(trace));
    }
    const requests = ((lhr.audits["network-requests"].details as { items?: { url: string; resourceType?: string }[] })?.items ?? []).filter(
      (x) => x.resourceType === "Script",
    );
    const all = [...new Set(requests.map((x) => x.url))];
    let jsAll = 0;
    for (const u of all) jsAll += await gzipSize(u, sizes);
    let jsFirst = 0;
    for (const u of inHtml) jsFirst += await gzipSize(u, sizes);
    rows.push({
      perf: Math.round((lhr.categories.performance.score ?? 0) * 100),
      a11y: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
      lcp: lhr.audits["largest-contentful-paint"].numericValue ?? NaN,
      tbt: lhr.audits["total-blocking-time"].numericValue ?? NaN,
      cls: lhr.audits["cumulative-layout-shift"].numericValue ?? NaN,
      fcp: lhr.audits["first-contentful-paint"].numericValue ?? NaN,
      jsFirst,
      jsAll,
      scripts: all.length,
    });
    const x = rows.at(-1)!;
    console.log(
      `run ${i + 1}: performance ${x.perf}, accessibility ${x.a11y}, FCP ${x.fcp.toFixed(0)} ms, LCP ${x.lcp.toFixed(0)} ms, TBT ${x.tbt.toFixed(0)} ms, CLS ${x.cls.toFixed(3)}, JS first load ${kb(x.jsFirst)} gzip (${inHtml.length} scripts), all JS ${kb(x.jsAll)} gzip (${x.scripts} scripts)`,
    );
  }
  const m = <K extends keyof Row>(k: K) => median(rows.map((r) => r[k]));
  console.log(
    `median of ${runs}: performance ${m("perf")}, accessibility ${m("a11y")}, FCP ${m("fcp").toFixed(0)} ms, LCP ${m("lcp").toFixed(0)} ms, TBT ${m("tbt").toFixed(0)} ms, CLS ${m("cls").toFixed(3)}`,
  );
  console.log(`first-load JavaScript (scripts in the HTML): ${kb(m("jsFirst"))} gzip; every script loaded until the page is shown: ${kb(m("jsAll"))} gzip`);
}

async function main() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const server = await startServer({ databaseUrl: adminUrl ? await createTestDatabase(adminUrl) : undefined, label: "lighthouse" });
  process.env.DATABASE_URL = server.databaseUrl;
  process.env.APP_SECRET = TEST_APP_SECRET;
  const loadBefore = execSync("uptime").toString().trim();
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
  const sizes = new Map<string, number>();
  try {
    const urls = await setUp(server.baseUrl);
    if (which !== "account") await measure("payer page /r/{request}", urls.payerUrl, server.baseUrl, chrome.port, sizes);
    if (which !== "payer") await measure("account page /a/{account} (five open invoices)", await urls.accountUrl(), server.baseUrl, chrome.port, sizes);
  } finally {
    await chrome.kill();
    await server.stop();
  }
  console.log(`\nload before: ${loadBefore}`);
  console.log(`load after:  ${execSync("uptime").toString().trim()}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
