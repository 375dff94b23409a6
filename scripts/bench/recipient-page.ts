// Benchmark of the hosted recipient page and its API calls, against a freshly started
// production server (PGlite, or PostgreSQL with TEST_DATABASE_URL):
//
//   npx tsx scripts/bench/recipient-page.ts [runs]
//
// Prints, over `runs` fresh browser contexts (default 10) at a 360 px viewport in Debian's
// Chromium: requests and bytes transferred per page load (first load, empty cache) and the
// time from navigation to the invoice being shown; then median/p95 latency of the session
// exchange and of GET invoice over 50 sequential calls each.
import { randomUUID } from "node:crypto";
import { chromium } from "@playwright/test";
import { createTestDatabase, startServer, TEST_APP_SECRET } from "../../test/support/server";

const runs = Number(process.argv[2] ?? 10);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const server = await startServer({ databaseUrl: adminUrl ? await createTestDatabase(adminUrl) : undefined, label: "bench" });
  process.env.DATABASE_URL = server.databaseUrl;
  process.env.APP_SECRET = TEST_APP_SECRET;
  const { createOrganization } = await import("@/lib/organizations/create-organization");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const org = await createOrganization({
      name: "Bench Supplies",
      ownerEmail: `bench-${randomUUID()}@example.test`,
      ownerPassword: "bench-password-123",
      ownerName: "Bench",
    });
    const reg = await fetch(`${server.baseUrl}/api/v1/obligations`, {
      method: "POST",
      headers: { authorization: `Bearer ${org.api_key}`, "content-type": "application/json", "idempotency-key": `bench-${randomUUID()}` },
      body: JSON.stringify({
        obligation_type: "invoice",
        external_reference: { namespace: "bench", id: randomUUID() },
        debtor: { name: "Northwind Traders" },
        amount_minor: "125000",
        currency: "EUR",
        deadline: "2030-12-31",
        business_context: { invoice_number: "INV-BENCH-1" },
      }),
    }).then((r) => r.json());
    const hostedUrl: string = reg.payment_request.hosted_url;
    const requestId: string = reg.payment_request.id;
    const token = new URL(hostedUrl).hash.slice(1);

    const loads: { requests: number; bytes: number; jsBytes: number; shownMs: number }[] = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
      const page = await context.newPage();
      let requests = 0;
      let bytes = 0;
      let jsBytes = 0;
      page.on("requestfinished", async (req) => {
        requests++;
        const s = await req.sizes().catch(() => undefined);
        if (!s) return;
        bytes += s.responseBodySize + s.responseHeadersSize;
        if (req.url().endsWith(".js")) jsBytes += s.responseBodySize;
      });
      const t0 = performance.now();
      await page.goto(hostedUrl);
      await page.getByTestId("amount").waitFor();
      const shownMs = performance.now() - t0;
      await page.waitForLoadState("networkidle");
      loads.push({ requests, bytes, jsBytes, shownMs });
      await context.close();
    }
    const col = <K extends keyof (typeof loads)[number]>(k: K) => loads.map((l) => l[k]);
    console.log(`page /r/{request}, ${runs} cold loads at 360 px (Chromium, loopback):`);
    console.log(
      `  requests per load: ${pct(col("requests"), 50)}   bytes transferred: ${(pct(col("bytes"), 50) / 1024).toFixed(0)} KiB (JS ${(pct(col("jsBytes"), 50) / 1024).toFixed(0)} KiB, uncompressed)`,
    );
    console.log(`  navigation -> amount shown: median ${ms(pct(col("shownMs"), 50))}, p95 ${ms(pct(col("shownMs"), 95))}`);

    const timeCalls = async (n: number, call: () => Promise<Response>) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        const r = await call();
        await r.arrayBuffer();
        if (!r.ok) throw new Error(`status ${r.status}`);
        out.push(performance.now() - t);
      }
      return out;
    };
    let cookie = "";
    const exchange = await timeCalls(50, async () => {
      const r = await fetch(`${server.baseUrl}/api/v1/recipient/contexts/${requestId}/session`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-request": "1", "idempotency-key": `bench-${randomUUID()}` },
        body: JSON.stringify({ token }),
      });
      cookie = r.headers.getSetCookie()[0]?.split(";")[0] ?? cookie;
      return r;
    });
    const invoice = await timeCalls(50, () => fetch(`${server.baseUrl}/api/v1/recipient/contexts/${requestId}/invoice`, { headers: { cookie } }));
    console.log(`POST session exchange (50 sequential): median ${ms(pct(exchange, 50))}, p95 ${ms(pct(exchange, 95))}`);
    console.log(`GET invoice           (50 sequential): median ${ms(pct(invoice, 50))}, p95 ${ms(pct(invoice, 95))}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
