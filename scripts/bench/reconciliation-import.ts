// Speed of the statement import with suggestions, at scale: an organization with 100,000
// open obligations (seeded in SQL with generate_series, payment references from the
// migration's fos_rf_reference), a generated 10,000-transaction camt.053 (a realistic mix:
// RF references structured and in free text, invoice numbers, several invoices in one
// transfer, amount and name only, supplier payments, unrelated noise), imported through
// POST /bank-statements of the production server on PostgreSQL; then GET
// /payments/{id}/suggestions over a few hundred of the imported payments (p50/p99).
//
//   npm run bench:reconciliation-import
//   npm run bench:reconciliation-import -- postgres://postgres@127.0.0.1:5433/postgres [obligations=100000] [transactions=10000]
//
// Each run creates its own database on that server and drops it at the end (unless
// IMPORT_KEEP_DB=1). Prints `uptime` before and after (the machine is shared: report the
// load with the figure). Output also as JSON (IMPORT_OUT, default
// bench-results/reconciliation-import-<time>.json). Targets: import < 60 s; suggestions p99 < 100 ms.
import { execSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { formatRf } from "@/lib/payment-references/rf";
import { ensureBuilt } from "../build-state";
import { benchOrganization } from "./organization";
import { createTestDatabase, startServer } from "../../test/support/server";
import { camt053, type Entry } from "../../test/support/statements";

const args = process.argv.slice(2);
const ADMIN_URL = args.find((a) => a.startsWith("postgres")) ?? process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5433/postgres";
const numbers = args.filter((a) => /^\d+$/.test(a)).map(Number);
const OBLIGATIONS = Math.min(numbers[0] ?? 100_000, 1_000_000);
const TRANSACTIONS = Math.min(numbers[1] ?? 10_000, 20_000);
const SUGGESTION_SAMPLES = Math.min(Number(process.env.IMPORT_SUGGESTION_SAMPLES ?? 300), 2_000);
const OUT = process.env.IMPORT_OUT ?? path.join("bench-results", `reconciliation-import-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
const uptime = () => execSync("uptime", { encoding: "utf8" }).trim();

// Deterministic PRNG (mulberry32), so two runs import the same mix.
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  "Northwind",
  "Brightwater",
  "Keller",
  "Lindqvist",
  "Harbour",
  "Oakridge",
  "Silverline",
  "Meridian",
  "Fjordline",
  "Redwood",
  "Alpine",
  "Greenfield",
  "Stonebridge",
  "Castellan",
  "Riverside",
  "Sunmill",
  "Ironbark",
  "Westmoor",
  "Eastgate",
  "Hollowpine",
  "Kestrel",
  "Larkspur",
  "Marlow",
  "Nightingale",
  "Orchard",
  "Pemberton",
  "Quayside",
  "Rosewood",
  "Saffron",
  "Thistle",
  "Umber",
  "Vantage",
  "Willowbank",
  "Yarrow",
  "Zephyr",
];
const SECOND = [
  "Traders",
  "Logistics",
  "Bakery",
  "Consulting",
  "Engineering",
  "Textiles",
  "Software",
  "Foods",
  "Media",
  "Architects",
  "Dental",
  "Motors",
  "Print",
  "Studios",
  "Farms",
  "Hotels",
  "Analytics",
  "Supplies",
  "Optics",
  "Ceramics",
];
const FORMS = ["Ltd", "GmbH", "S.A.", "B.V.", "Inc.", "SARL", "AB", "LLC"];
const sqlArray = (xs: string[]) => `(ARRAY[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(",")}])`;

export async function seedObligations(c: pg.Client, org: string, n: number) {
  const t = performance.now();
  await c.query("SET synchronous_commit = off");
  // g = 1..n: 85 % invoices, 15 % contractual (a condition, 30 % now and 70 % on the
  // condition); 1 in 5 the organization is the debtor (a supplier's invoice); 90 % EUR;
  // all open (nothing allocated yet), deadlines from 60 days ago to 120 days ahead.
  const name = `${sqlArray(FIRST)}[1 + g % ${FIRST.length}] || ' ' || ${sqlArray(SECOND)}[1 + (g / ${FIRST.length}) % ${SECOND.length}] || ' ' || ${sqlArray(FORMS)}[1 + (g / ${FIRST.length * SECOND.length}) % ${FORMS.length}]`;
  await c.query(
    `INSERT INTO obligations (id, organization_id, reference, payment_reference, obligation_type, organization_role, external_namespace, external_id,
       creditor_name, creditor_email, debtor_name, debtor_email, amount_minor, allocated_minor, currency, deadline, invoice_number, description,
       status, version, created_at, updated_at)
     SELECT gen_random_uuid(), $1::uuid, 'OBL-' || r, fos_rf_reference(r), t, role, 'erp', 'ERP-' || g,
       CASE WHEN role = 'creditor' THEN 'Import Bench Org' ELSE nm END, CASE WHEN role = 'creditor' THEN '' ELSE 'sales' || g || '@supplier.example' END,
       CASE WHEN role = 'debtor' THEN 'Import Bench Org' ELSE nm END, CASE WHEN role = 'debtor' THEN '' ELSE 'ap' || g || '@customer.example' END,
       amt, 0, CASE WHEN g % 10 = 9 THEN 'USD' ELSE 'EUR' END, current_date + (g % 180 - 60),
       CASE WHEN role = 'debtor' THEN 'SUP-' || lpad(g::text, 7, '0') ELSE 'INV-' || lpad(g::text, 8, '0') END, 'Import bench',
       CASE WHEN g % 2 = 0 THEN 'PAYMENT_REQUESTED' ELSE 'OBLIGATION_CAPTURED' END, 1, now() - make_interval(mins => $2::int - g), now()
     FROM (SELECT g, upper(lpad(to_hex(g), 10, '0')) AS r, ${name} AS nm,
             CASE WHEN g % 20 < 17 THEN 'invoice' ELSE 'contractual' END AS t,
             CASE WHEN g % 5 = 0 THEN 'debtor' ELSE 'creditor' END AS role,
             1000 + (g::bigint * 7919) % 10000000 AS amt
           FROM generate_series(1, $2::int) g) s`,
    [org, n],
  );
  await c.query(
    `INSERT INTO payment_requests (id, organization_id, obligation_id, token_hash, expires_at, created_at, updated_at)
     SELECT gen_random_uuid(), organization_id, id, md5(id::text) || md5(reference), created_at + interval '90 days', created_at, created_at
     FROM obligations WHERE organization_id = $1::uuid`,
    [org],
  );
  await c.query(
    `INSERT INTO obligation_conditions (id, organization_id, obligation_id, position, key, label, status)
     SELECT gen_random_uuid(), organization_id, id, 1, 'acceptance', 'Acceptance', 'waiting'
     FROM obligations WHERE organization_id = $1::uuid AND obligation_type = 'contractual'`,
    [org],
  );
  await c.query(
    `INSERT INTO payment_terms (id, organization_id, obligation_id, sequence, amount_type, percentage_basis_points, trigger_type, condition_id, due_rule, due_days)
     SELECT gen_random_uuid(), c.organization_id, c.obligation_id, s.seq, 'percentage', s.bp, s.trig, CASE WHEN s.seq = 2 THEN c.id END, 'days_after_trigger', s.days
     FROM obligation_conditions c
     CROSS JOIN (VALUES (1, 3000, 'immediately', 14), (2, 7000, 'condition_satisfied', 30)) AS s(seq, bp, trig, days)
     WHERE c.organization_id = $1::uuid`,
    [org],
  );
  await c.query("VACUUM ANALYZE");
  return Math.round(performance.now() - t);
}

export type Ob = {
  payment_reference: string;
  invoice_number: string;
  debtor_name: string;
  creditor_name: string;
  amount_minor: string;
  organization_role: string;
};

// The statement: 30 % RF in the structured remittance, 10 % RF in free text (spaced, some
// partial payments), 20 % one invoice number in free text, 10 % amount and name only, 5 %
// two invoices in one transfer, 5 % supplier payments (outgoing, their invoice number),
// 20 % unrelated bookings (card payments, fees, refunds) in and out.
export function statement(obs: { receivable: Ob[]; payable: Ob[] }, n: number): { xml: string; kinds: Record<string, number> } {
  const rnd = prng(4711);
  const kinds: Record<string, number> = {};
  const entries: Entry[] = [];
  let ri = 0;
  let pi = 0;
  const rec = () => obs.receivable[ri++ % obs.receivable.length];
  const dec = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, "0")}`;
  const day = (i: number) => `2026-11-${String(1 + (i % 20)).padStart(2, "0")}`;
  const bank = (s: string) => s.toUpperCase().replace(/[.,]/g, "");
  for (let i = 0; i < n; i++) {
    const k = i % 20;
    let e: Entry;
    let kind: string;
    if (k < 6) {
      const o = rec();
      kind = "rf_structured";
      e = { amount: dec(BigInt(o.amount_minor)), name: bank(o.debtor_name), rf: o.payment_reference };
    } else if (k < 8) {
      const o = rec();
      kind = "rf_text";
      const a = BigInt(o.amount_minor);
      e = { amount: dec(k === 7 ? a / 2n + 1n : a), name: o.debtor_name, ustrd: `Payment ${formatRf(o.payment_reference).toLowerCase()} thank you` };
    } else if (k < 12) {
      const o = rec();
      kind = "invoice_text";
      e = { amount: dec(BigInt(o.amount_minor)), name: bank(o.debtor_name), ustrd: `Invoice ${o.invoice_number} of 01.10.2026 customer 4471` };
    } else if (k < 14) {
      const o = rec();
      kind = "amount_name";
      e = { amount: dec(BigInt(o.amount_minor)), name: bank(o.debtor_name), ustrd: "Transfer" };
    } else if (k < 15) {
      const a = rec();
      const b = rec();
      kind = "two_invoices";
      e = { amount: dec(BigInt(a.amount_minor) + BigInt(b.amount_minor)), name: a.debtor_name, ustrd: `Invoices ${a.invoice_number}, ${b.invoice_number}` };
    } else if (k < 16) {
      const o = obs.payable[pi++ % obs.payable.length];
      kind = "supplier_payment";
      e = { amount: dec(BigInt(o.amount_minor)), credit: false, name: o.creditor_name, ustrd: `Your invoice ${o.invoice_number}` };
    } else {
      kind = "noise";
      const credit = rnd() < 0.3;
      const texts = credit ? ["Card refund", "Interest", "Cash deposit 0815"] : ["CARD 4711 REWE SAGT DANKE", "Bank fees", "SEPA direct debit Telekom 12/2026"];
      e = { amount: dec(BigInt(100 + Math.floor(rnd() * 2_000_000))), credit, name: credit ? "Cash" : "REWE Markt GmbH", ustrd: texts[i % 3] };
    }
    kinds[kind] = (kinds[kind] ?? 0) + 1;
    entries.push({ ...e, date: day(i), ref: `IMP-${i}` });
  }
  return { xml: camt053(entries, { from: "2026-11-01", to: "2026-11-20" }), kinds };
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 10) / 10;
};

async function main() {
  ensureBuilt();
  const before = uptime();
  console.log(`machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB; ${before}`);
  const databaseUrl = await createTestDatabase(ADMIN_URL);
  const dbName = new URL(databaseUrl).pathname.slice(1);
  const result: Record<string, unknown> = { obligations: OBLIGATIONS, transactions: TRANSACTIONS, database: dbName, uptimeBefore: before };
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer({ databaseUrl, label: "import-bench", env: { LOG_LEVEL: "warn" } }); // applies the migrations
    const org = await benchOrganization(databaseUrl, "Import Bench Org");

    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    let obs: { receivable: Ob[]; payable: Ob[] };
    try {
      const seedMs = await seedObligations(c, org.organizationId, OBLIGATIONS);
      console.log(`seeded ${OBLIGATIONS} open obligations in ${seedMs} ms`);
      result.seedMs = seedMs;
      const pick = async (role: string, limit: number) =>
        (
          await c.query<Ob>(
            `SELECT payment_reference, invoice_number, debtor_name, creditor_name, amount_minor::text, organization_role FROM obligations
             WHERE organization_id = $1::uuid AND organization_role = $2 AND currency = 'EUR' ORDER BY md5(id::text) LIMIT $3`,
            [org.organizationId, role, limit],
          )
        ).rows;
      obs = { receivable: await pick("creditor", Math.ceil(TRANSACTIONS * 0.8)), payable: await pick("debtor", Math.ceil(TRANSACTIONS * 0.06)) };
    } finally {
      await c.end();
    }
    const { xml, kinds } = statement(obs, TRANSACTIONS);
    const bytes = Buffer.from(xml);
    console.log(`statement: ${TRANSACTIONS} transactions, ${(bytes.length / 2 ** 20).toFixed(2)} MiB, ${JSON.stringify(kinds)}`);
    result.statementBytes = bytes.length;
    result.mix = kinds;

    const auth = { authorization: `Bearer ${org.apiKey}` };
    const form = new FormData();
    form.set("file", new Blob([bytes]), "bench.camt053.xml");
    const loadBefore = uptime();
    const t0 = performance.now();
    const res = await fetch(`${server.baseUrl}/api/v1/bank-statements`, { method: "POST", headers: { ...auth, "idempotency-key": randomUUID() }, body: form });
    const body = await res.json();
    const importMs = Math.round(performance.now() - t0);
    const loadAfter = uptime();
    if (res.status !== 201) throw new Error(`import: ${res.status} ${JSON.stringify(body).slice(0, 1000)}`);
    console.log(
      `import: ${importMs} ms, HTTP ${res.status}: entries ${body.entries}, payments ${body.payments_created}, auto-allocated ${body.auto_allocated}, suggested ${body.suggested}`,
    );
    console.log(`  load before: ${loadBefore}\n  load after:  ${loadAfter}`);
    Object.assign(result, { importMs, importLoadBefore: loadBefore, importLoadAfter: loadAfter, imported: body });

    // Suggestions: payments spread over the file (auto-allocated ones answer at once with
    // an empty list; they are part of what a client reads too).
    const detail = await (await fetch(`${server.baseUrl}/api/v1/bank-statements/${body.id}`, { headers: auth })).json();
    const items = (detail.items as { payment_id: string | null; match: string }[]).filter((i) => i.payment_id);
    const step = Math.max(1, Math.floor(items.length / SUGGESTION_SAMPLES));
    const sample = items.filter((_, i) => i % step === 0).slice(0, SUGGESTION_SAMPLES);
    for (const it of sample.slice(0, 20)) await (await fetch(`${server.baseUrl}/api/v1/payments/${it.payment_id}/suggestions`, { headers: auth })).text(); // warm-up
    const ms: number[] = [];
    const byMatch: Record<string, number[]> = {};
    for (const it of sample) {
      const t = performance.now();
      const r = await fetch(`${server.baseUrl}/api/v1/payments/${it.payment_id}/suggestions`, { headers: auth });
      await r.text();
      const d = performance.now() - t;
      if (r.status !== 200) throw new Error(`suggestions: ${r.status}`);
      ms.push(d);
      byMatch[it.match] = [...(byMatch[it.match] ?? []), d];
    }
    const sug = {
      samples: ms.length,
      p50: q(ms, 0.5),
      p99: q(ms, 0.99),
      max: q(ms, 1),
      byMatch: Object.fromEntries(Object.entries(byMatch).map(([k, v]) => [k, { n: v.length, p50: q(v, 0.5), p99: q(v, 0.99) }])),
    };
    console.log(`suggestions: ${sug.samples} payments, p50 ${sug.p50} ms, p99 ${sug.p99} ms, max ${sug.max} ms ${JSON.stringify(sug.byMatch)}`);
    result.suggestions = sug;
  } finally {
    await server?.stop();
    if (!process.env.IMPORT_KEEP_DB) {
      const a = new pg.Client({ connectionString: ADMIN_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await a.end();
    }
  }
  const after = uptime();
  console.log(`\n${after}`);
  result.uptimeAfter = after;
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(result, null, 2));
  console.log(`results: ${OUT}`);
}

if (process.argv[1]?.endsWith("reconciliation-import.ts")) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
