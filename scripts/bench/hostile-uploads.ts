// Hostile uploads against the production server on PostgreSQL: the worst file of each
// format (e-invoice XML and PDF, camt, MT940, CSV, a document), sent one after the other
// while another client polls GET /api/v1/obligations?limit=1 back to back. Prints, per upload,
// its status, code and time, and the polling client's p50/p99/max during it (target p99 < 100
// ms: parsing runs in worker threads, lib/uploads/parse-pool.ts), and the idle baseline.
//
//   npm run bench:hostile-uploads
//   npm run bench:hostile-uploads -- postgres://postgres@127.0.0.1:5433/postgres
//
// Creates its own database on that server and drops it at the end. Prints `uptime` before and
// after (the machine may be shared: report the load with the figures). JSON in HOSTILE_OUT
// (default bench-results/hostile-uploads-<time>.json). docs/security.md, "Uploads and parsers".
import { execSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuilt } from "../build-state";
import { benchOrganization } from "./organization";
import { dropDatabase } from "./seed";
import { createTestDatabase, startServer } from "../../test/support/server";
import { encodeFilter } from "../../test/support/pdf-filters";
import { pdfWithEmbeddedStream } from "../../test/support/raw-pdf";

const ADMIN_URL =
  process.argv.slice(2).find((a) => a.startsWith("postgres")) ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5433/postgres";
const OUT = process.env.HOSTILE_OUT ?? path.join("bench-results", `hostile-uploads-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
const MIB = 1024 * 1024;
const uptime = () => execSync("uptime", { encoding: "utf8" }).trim();
const pct = (xs: number[], p: number) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 10) / 10;
};

type Upload = { label: string; path: string; bytes: Buffer; fields?: Record<string, string> };

// The worst shapes found for each format: each is refused (in a few seconds at most) or read.
function uploads(obligationId: string): Upload[] {
  const camt = (inner: string) =>
    Buffer.from(`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>${inner}</Stmt></BkToCstmrStmt></Document>`);
  const objStm = Buffer.concat([
    Buffer.from("<< /Type /ObjStm /N 1 /First 5 /Filter [/FlateDecode /ASCII85Decode] >>\nstream\n"),
    encodeFilter("FlateDecode", Buffer.alloc(40_000_000, "z")),
    Buffer.from("\nendstream"),
  ]);
  const einvoice = (label: string, bytes: Buffer): Upload => ({ label, path: "/obligation-imports", bytes, fields: { dry_run: "true" } });
  const statement = (label: string, bytes: Buffer, format?: string): Upload => ({ label, path: "/bank-statements", bytes, fields: format ? { format } : {} });
  return [
    // A normal file first: what the worker costs an ordinary upload.
    einvoice("normal: CII_example1.xml (34 KB)", readFileSync("test/fixtures/einvoice/en16931/cii/CII_example1.xml")),
    einvoice("e-invoice XML: 9.5 MB of sibling elements", Buffer.from(`<Invoice>${"<a>1</a>".repeat(1_200_000)}</Invoice>`)),
    einvoice('e-invoice XML: "<a" x 120,000 (issue 33)', Buffer.from("<a".repeat(120_000))),
    einvoice("e-invoice XML: a tag of 1.5 million attributes", Buffer.from(`<Invoice ${'a="1" '.repeat(1_500_000)}/>`)),
    einvoice(
      "PDF: Flate + ASCII85 object stream of 40 million z (issue 33)",
      pdfWithEmbeddedStream({ streamDict: "", data: Buffer.from("<x/>"), extraObjects: [objStm] }),
    ),
    einvoice("PDF: LZW bomb attachment", pdfWithEmbeddedStream({ streamDict: "/Filter /LZWDecode", data: encodeFilter("LZWDecode", Buffer.alloc(11 * MIB)) })),
    einvoice("PDF: 9 MB number token", Buffer.from(`%PDF-1.7\n1 0 obj\n${"1".repeat(9 * MIB)}a\nendobj\n`)),
    statement("camt: 9 MB of sibling elements", camt("<a>1</a>".repeat(1_150_000))),
    statement(
      "MT940: :86:/EREF/a + 9 MB of /",
      Buffer.from(
        `:20:X\n:25:NL91ABNA0417164300\n:60F:C070903EUR0,00\n:61:0709070904C50,05NTRFNONREF\n:86:/EREF/a${"/".repeat(9 * MIB)}b\n:62F:C070903EUR0,00\n-\n`,
      ),
    ),
    statement(
      "CSV: 100 amount cells of 40,000 digits",
      Buffer.from(`Buchungstag;Betrag;Waehrung\n${`01.01.2026;1,${"0".repeat(40_000)}1;EUR\n`.repeat(100)}`),
      "csv",
    ),
    statement("CSV: 9 MB without a header row", Buffer.from(`${`${"x;".repeat(75_000)}\n`.repeat(60)}`), "csv"),
    {
      label: "document: 9 MB of quotes",
      path: `/obligations/${obligationId}/documents`,
      bytes: Buffer.from('"'.repeat(9 * MIB)),
      fields: { expected_version: "999" },
    },
  ];
}

async function main() {
  ensureBuilt();
  const before = uptime();
  console.log(`machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB (shared); ${before}`);
  const databaseUrl = await createTestDatabase(ADMIN_URL);
  const dbName = new URL(databaseUrl).pathname.slice(1);
  const server = await startServer({ databaseUrl, label: "hostile-bench", env: { LOG_LEVEL: "warn" } });
  const result: Record<string, unknown> = { uptimeBefore: before, rows: [] as unknown[] };
  try {
    const org = await benchOrganization(databaseUrl, "Hostile Bench Org");
    const auth = { authorization: `Bearer ${org.apiKey}` };
    const api = (p: string, init: RequestInit = {}) => fetch(`${server.baseUrl}/api/v1${p}`, { ...init, headers: { ...auth, ...(init.headers ?? {}) } });
    const created = await api("/obligations", {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({
        obligation_type: "invoice",
        external_reference: { namespace: "erp", id: randomUUID() },
        debtor: { name: "Northwind Traders Ltd", email: "ap@northwind.example" },
        amount_minor: "12000",
        currency: "EUR",
        deadline: "2027-01-31",
        business_context: { invoice_number: "BENCH-1" },
      }),
    });
    const obligation = (await created.json()) as { obligation: { id: string } };
    if (created.status !== 201) throw new Error(`obligation: ${created.status} ${JSON.stringify(obligation)}`);

    // The files are made before the polling starts: at load 30 making them (a 40 MB deflate,
    // an 11 MiB LZW) held this process's event loop past the server's keep-alive timeout,
    // and the first upload was written into a connection the server had closed (EPIPE).
    const list = uploads(obligation.obligation.id);

    // The polling client: GET /obligations?limit=1 back to back, latencies by time.
    const samples: { at: number; ms: number }[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const t = performance.now();
        // (the first poll may meet a kept-alive connection the server closed meanwhile: again)
        const r = await api("/obligations?limit=1").catch(() => undefined);
        if (!r) continue;
        await r.text();
        samples.push({ at: t, ms: performance.now() - t });
      }
    })();
    const window = (from: number, to: number) => samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.ms);

    await new Promise((r) => setTimeout(r, 1000)); // warm-up
    const idleFrom = performance.now();
    await new Promise((r) => setTimeout(r, 3000));
    const idle = window(idleFrom, performance.now());
    console.log(`idle: GET /obligations?limit=1 p50 ${pct(idle, 0.5)} ms, p99 ${pct(idle, 0.99)} ms (${idle.length} requests)`);
    result.idle = { p50: pct(idle, 0.5), p99: pct(idle, 0.99), n: idle.length };

    console.log(`\n${"upload".padEnd(62)} ${"bytes".padStart(9)}  status code                   time    poll p50   p99   max (n)`);
    for (const u of list) {
      const form = new FormData();
      for (const [k, v] of Object.entries(u.fields ?? {})) form.set(k, v);
      form.set("file", new Blob([new Uint8Array(u.bytes)]), "upload");
      const t0 = performance.now();
      const r = await api(u.path, { method: "POST", headers: { "idempotency-key": randomUUID() }, body: form });
      const body = (await r.json()) as { error?: { code: string } };
      const ms = Math.round(performance.now() - t0);
      await new Promise((res) => setTimeout(res, 50));
      const during = window(t0, performance.now());
      const row = {
        label: u.label,
        bytes: u.bytes.length,
        status: r.status,
        code: body.error?.code ?? "",
        ms,
        pollP50: pct(during, 0.5),
        pollP99: pct(during, 0.99),
        pollMax: pct(during, 1),
        polls: during.length,
      };
      (result.rows as unknown[]).push(row);
      console.log(
        `${u.label.padEnd(62)} ${String(u.bytes.length).padStart(9)}  ${String(r.status).padEnd(6)} ${row.code.padEnd(22)} ${String(ms).padStart(5)} ms  ${String(row.pollP50).padStart(6)} ${String(row.pollP99).padStart(6)} ${String(row.pollMax).padStart(6)} (${row.polls})`,
      );
    }
    polling = false;
    await poller;
    const all = (result.rows as { pollP99: number }[]).map((r) => r.pollP99);
    console.log(`\nworst poll p99 during an upload: ${Math.max(...all)} ms (target < 100 ms)`);
  } finally {
    await server.stop();
    await dropDatabase(ADMIN_URL, dbName);
  }
  const after = uptime();
  console.log(`${after}`);
  result.uptimeAfter = after;
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(result, null, 2));
  console.log(`written ${OUT}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
