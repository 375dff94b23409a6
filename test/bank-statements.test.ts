import { randomUUID } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { ZBankStatement, ZBankStatementDetail, ZBankStatementList, ZSuggestionList } from "@/lib/schemas/reconciliation";
import { apiKeyWith, newOrg, signedIn, userWith, type OrgFixture } from "./support/fixtures";
import { dayOffset } from "./support/obligations";
import { camt053, upload } from "./support/statements";

// POST /bank-statements and the reads, over HTTP: the third-party sample statements, and
// generated camt.053 files with known answers for the matching.

const FIXTURES = path.join(import.meta.dirname, "fixtures/bank");
const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(path.join(d, f)).isDirectory() ? walk(path.join(d, f)) : [path.join(d, f)]));
const samples = walk(FIXTURES)
  .filter((f) => !/(LICENSE|SOURCE)/.test(path.basename(f)))
  .map((f) => path.relative(FIXTURES, f))
  .sort();

// Refused on purpose: a camt document without a statement, an MT940 file whose :25: comes
// after a :61:, and three single-line MT940 snippets without an opening balance (so without
// a currency).
const MALFORMED = new Set([
  "camt/camt053.v2.wrong.xml",
  "mt940/betterplace/sepa_snippet_broken.sta",
  "mt940/betterplace/empty_entry_date.sta",
  "mt940/cmxl/statement_details.sta",
  "mt940/cmxl/statement_line.sta",
]);

// Statements none of whose transactions is in a currency the service holds: 422 naming them.
const FOREIGN = new Set([
  "camt/camt054.v2.with-account-name.xml",
  "camt/camt054.v2.xml",
  "camt/camt054.v8-with-UETR.xml",
  "camt/camt054.v8-with-financial-institution.xml",
  "mt940/mBank/mt942.sta",
]);

async function obligation(org: OrgFixture, o: { amount: string; debtor?: string; invoice?: string }) {
  const invoice = o.invoice ?? `INV-${randomUUID().slice(0, 8)}`;
  const r = await org.api.post("/obligations", {
    obligation_type: "invoice",
    external_reference: { namespace: "erp", id: `${invoice}-${randomUUID().slice(0, 6)}` },
    debtor: { name: o.debtor ?? "Northwind Traders Ltd", email: "ap@northwind.example" },
    amount_minor: o.amount,
    currency: "EUR",
    deadline: dayOffset(5),
    business_context: { invoice_number: invoice },
  });
  expect(r.status, r.text).toBe(201);
  return (await org.api.get(`/obligations/${r.body.obligation.id}`)).body as { id: string; reference: string; payment_reference: string; version: number };
}

describe("POST /bank-statements: the sample statements", () => {
  it("finds the samples", () => {
    expect(samples.length).toBeGreaterThan(30);
  });

  for (const f of samples) {
    const outcome = MALFORMED.has(f)
      ? "refused as malformed"
      : FOREIGN.has(f)
        ? "refused: no currency the service holds"
        : "imports; a re-import creates no second payment";
    it(`${f}: ${outcome}`, async () => {
      const org = await newOrg(`Samples ${f}`);
      const bytes = readFileSync(path.join(FIXTURES, f));
      const r = await upload(org.api, bytes, {}, { filename: path.basename(f) });
      if (MALFORMED.has(f)) {
        expect(r.status, r.text).toBe(422);
        expect(r.body.error.code).toBe("statement_unreadable");
        return;
      }
      if (FOREIGN.has(f)) {
        expect(r.status, r.text).toBe(422);
        expect(r.body.error.code).toBe("validation_failed");
        expect(r.body.error.message).toMatch(/PLN|SEK/);
        return;
      }
      expect(r.status, r.text).toBe(201);
      const s = ZBankStatement.parse(r.body);
      expect(s.credits + s.debits).toBe(s.entries);
      expect(s.duplicates_skipped).toBe(0);
      const d = ZBankStatementDetail.parse((await org.api.get(`/bank-statements/${s.id}`)).body);
      expect(d.items).toHaveLength(s.entries);
      expect(d.items.filter((i) => i.payment_id !== null)).toHaveLength(s.payments_created);
      const again = await upload(org.api, bytes, {}, { filename: path.basename(f) });
      expect(again.status, again.text).toBe(201);
      expect(again.body).toMatchObject({ entries: s.entries, payments_created: 0, duplicates_skipped: s.payments_created });
      const d2 = ZBankStatementDetail.parse((await org.api.get(`/bank-statements/${again.body.id}`)).body);
      expect(d2.items.map((i) => i.duplicate_of)).toEqual(d.items.map((i) => i.payment_id));
      const count = await db().payment.count({ where: { organizationId: org.organizationId } });
      expect(count).toBe(s.payments_created);
    });
  }
});

describe("POST /bank-statements: the Polish mBank sample", () => {
  it("is text, also framed by SWIFT's SOH/ETX bytes: 422 for its currency (PLN), never 415 binary", async () => {
    const org = await newOrg("mBank sample");
    const text = readFileSync(path.join(FIXTURES, "mt940/mBank/mt942.sta"));
    const framed = new Uint8Array([0x01, ...text, 0x03]);
    for (const bytes of [text, framed]) {
      const r = await upload(org.api, bytes, {}, { filename: "mt942.sta" });
      expect(r.status, r.text).toBe(422);
      expect(r.body.error.code).toBe("validation_failed");
      expect(r.body.error.message).toContain("PLN");
    }
    const pdfLike = new Uint8Array([0x00, 0x01, ...text]);
    expect((await upload(org.api, pdfLike, {}, { filename: "x.sta" })).status).toBe(415);
  });
  it("opening and closing balances are kept; the item's payment state follows later allocations", async () => {
    const org = await newOrg("Balances sample");
    const bytes = readFileSync(path.join(FIXTURES, "mt940/jejik/generic.sta"));
    const r = await upload(org.api, bytes, {}, { filename: "generic.sta" });
    expect(r.status, r.text).toBe(201);
    const d = ZBankStatementDetail.parse((await org.api.get(`/bank-statements/${r.body.id}`)).body);
    expect(d.balances.opening).not.toBeNull();
    expect(d.balances.closing).not.toBeNull();
    expect(d.items.every((i) => i.payment_state === null || i.payment_state === "unallocated")).toBe(true);
  });
});

describe("POST /bank-statements: matching and automatic allocation", () => {
  let org: OrgFixture;
  let other: OrgFixture;
  beforeAll(async () => {
    org = await newOrg("Statement Importer GmbH");
    other = await newOrg("Other Statement Tenant");
  });

  it("allocates an exact RF reference automatically, suggests the rest, leaves near misses and foreign references unmatched", async () => {
    const exact = await obligation(org, { amount: "125000" });
    const tag = randomUUID().slice(0, 6).toUpperCase();
    const nearMiss = await obligation(org, { amount: "99900", invoice: `R${tag}-12`, debtor: "Near Miss Co" });
    const byInvoice = await obligation(org, { amount: "45000", invoice: `R${tag}-77` });
    const foreign = await obligation(other, { amount: "30000" });
    const xml = camt053([
      { amount: "1250.00", name: "NORTHWIND TRADERS LTD", rf: exact.payment_reference, ustrd: "Thanks" },
      { amount: "450.00", name: "Northwind Traders", ustrd: `Invoice R${tag}-77` },
      { amount: "12.34", name: "Someone", ustrd: `R${tag}-123 XR${tag}-12` },
      { amount: "300.00", name: "Other", ustrd: `Pay ${foreign.payment_reference}` },
      { amount: "99.00", credit: false, name: "Office Supplies Ltd", ustrd: "Paper" },
    ]);
    const r = await upload(org.api, xml);
    expect(r.status, r.text).toBe(201);
    const s = ZBankStatement.parse(r.body);
    expect(s).toMatchObject({
      format: "camt.053",
      account: { iban: "DE89370400440532013000", currency: "EUR" },
      period: { from: "2026-11-01", to: "2026-11-30" },
      entries: 5,
      credits: 4,
      debits: 1,
      payments_created: 5,
      duplicates_skipped: 0,
      auto_allocated: 1,
      suggested: 1,
    });
    const d = ZBankStatementDetail.parse((await org.api.get(`/bank-statements/${s.id}`)).body);
    expect(d.items.map((i) => i.match)).toEqual(["auto_allocated", "suggested", "unmatched", "unmatched", "unmatched"]);
    expect(d.items[0]).toMatchObject({
      index: 0,
      direction: "incoming",
      amount_minor: "125000",
      currency: "EUR",
      booked_on: "2026-11-20",
      counterparty_name: "NORTHWIND TRADERS LTD",
    });
    expect(d.items[4]).toMatchObject({ direction: "outgoing", amount_minor: "9900" });

    const p0 = (await org.api.get(`/payments/${d.items[0].payment_id}`)).body;
    expect(p0).toMatchObject({
      amount_minor: "125000",
      allocated_minor: "125000",
      payer_name: "NORTHWIND TRADERS LTD",
      reference: exact.payment_reference,
      received_on: "2026-11-20",
    });
    expect(p0.external_reference.namespace).toBe("bank:DE89370400440532013000");
    expect((await org.api.get(`/obligations/${exact.id}`)).body).toMatchObject({ status: "RECONCILED", allocated_minor: "125000" });
    const sug = ZSuggestionList.parse((await org.api.get(`/payments/${d.items[1].payment_id}/suggestions`)).body).items;
    expect(sug[0].allocations[0].obligation_id).toBe(byInvoice.id);
    expect(sug[0].confidence).toBe("high");
    const miss = ZSuggestionList.parse((await org.api.get(`/payments/${d.items[2].payment_id}/suggestions`)).body).items;
    expect(miss.flatMap((x) => x.allocations.map((a) => a.obligation_id))).not.toContain(nearMiss.id);
    expect((await org.api.get(`/obligations/${foreign.id}`, {})).status).toBe(404);

    // Events: one import, one payment.recorded per payment, one payment.allocated.
    const events = await db().event.findMany({
      where: { organizationId: org.organizationId, createdAt: { gte: new Date(Date.parse(s.created_at) - 60_000) } },
    });
    const imported = events.filter((e) => e.type === "bank_statement.imported");
    expect(imported.map((e) => (e.data as any).bank_statement.id)).toContain(s.id);
    expect((imported.find((e) => (e.data as any).bank_statement.id === s.id)!.data as any).bank_statement).toEqual(s);
    const ids = new Set(d.items.map((i) => i.payment_id));
    expect(events.filter((e) => e.type === "payment.recorded" && ids.has(e.paymentId))).toHaveLength(5);
    expect(events.filter((e) => e.type === "payment.allocated" && ids.has(e.paymentId))).toHaveLength(1);
  });

  it("auto_allocate=false only suggests; overpayment allocates the outstanding amount", async () => {
    const a = await obligation(org, { amount: "10000" });
    const b = await obligation(org, { amount: "20000" });
    const off = await upload(org.api, camt053([{ amount: "100.00", name: "X", rf: a.payment_reference }]), { auto_allocate: "false" });
    expect(off.status, off.text).toBe(201);
    expect(off.body).toMatchObject({ auto_allocated: 0, suggested: 1 });
    const on = await upload(org.api, camt053([{ amount: "250.00", name: "X", ustrd: `RF ${b.payment_reference}` }]));
    expect(on.body).toMatchObject({ auto_allocated: 1 });
    const item = ZBankStatementDetail.parse((await org.api.get(`/bank-statements/${on.body.id}`)).body).items[0];
    expect((await org.api.get(`/payments/${item.payment_id}`)).body).toMatchObject({ allocated_minor: "20000", unallocated_minor: "5000" });
  });

  it("two payments of one file for the same obligation: the second sees the first's allocation", async () => {
    const o = await obligation(org, { amount: "30000" });
    const r = await upload(
      org.api,
      camt053([
        { amount: "100.00", name: "X", rf: o.payment_reference },
        { amount: "250.00", name: "X", rf: o.payment_reference },
      ]),
    );
    expect(r.status, r.text).toBe(201);
    expect(r.body.auto_allocated).toBe(2);
    expect((await org.api.get(`/obligations/${o.id}`)).body).toMatchObject({ status: "RECONCILED", allocated_minor: "30000", version: 3 });
  });

  it("overlapping statements: only the new transactions become payments", async () => {
    const t = [1, 2, 3, 4].map((n) => ({ amount: `${n}0.00`, name: "Overlap Ltd", ref: `OVL-${randomUUID().slice(0, 8)}-${n}` }));
    const first = await upload(org.api, camt053(t.slice(0, 3)));
    const second = await upload(org.api, camt053(t.slice(1, 4)));
    expect(first.body).toMatchObject({ entries: 3, payments_created: 3, duplicates_skipped: 0 });
    expect(second.body).toMatchObject({ entries: 3, payments_created: 1, duplicates_skipped: 2 });
    const d1 = ZBankStatementDetail.parse((await org.api.get(`/bank-statements/${first.body.id}`)).body);
    const d2 = ZBankStatementDetail.parse((await org.api.get(`/bank-statements/${second.body.id}`)).body);
    expect(d2.items.map((i) => i.duplicate_of)).toEqual([d1.items[1].payment_id, d1.items[2].payment_id, null]);
    expect(d2.items[2].payment_id).not.toBeNull();
  });

  it("refusals: 415 not a statement, 422 unreadable, DOCTYPE, decimals, csv_mapping, 413, missing file", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const a = await upload(org.api, png, {}, { filename: "x.png" });
    expect(a.status, a.text).toBe(415);
    expect(a.body.error.code).toBe("unsupported_media_type");
    const broken = camt053([{ amount: "1.00", name: "X" }]).replace("</Stmt>", "");
    const b = await upload(org.api, broken);
    expect(b.status, b.text).toBe(422);
    expect(b.body.error.code).toBe("statement_unreadable");
    const doctype = camt053([{ amount: "1.00", name: "&xxe;" }]).replace(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<?xml version="1.0"?><!DOCTYPE Document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
    );
    const c = await upload(org.api, doctype);
    expect([415, 422]).toContain(c.status);
    expect(c.text).not.toContain("root:");
    const dec = await upload(org.api, camt053([{ amount: "1.005", name: "X" }]));
    expect(dec.status, dec.text).toBe(422);
    expect(dec.body.error.code).toBe("validation_failed");
    expect(dec.body.error.message).toContain("transaction 1");
    const csv = "Date,Amount,Currency,Name,Text\n2026-11-20,10.00,EUR,X,Y\n";
    const m1 = await upload(org.api, csv, { format: "csv", csv_mapping: "{not json" }, { filename: "x.csv" });
    expect(m1.status, m1.text).toBe(422);
    expect(m1.body.error.message).toContain("csv_mapping");
    const m2 = await upload(org.api, csv, { format: "csv", csv_mapping: JSON.stringify({ amount: [] }) }, { filename: "x.csv" });
    expect(m2.status, m2.text).toBe(422);
    expect(m2.body.error.message).toContain("csv_mapping");
    const big = await upload(org.api, Buffer.alloc(10 * 1024 * 1024 + 10, 0x20));
    expect(big.status, big.text).toBe(413);
    const form = new FormData();
    form.set("format", "camt.053");
    const none = await org.api.call("POST", "/bank-statements", { form });
    expect(none.status, none.text).toBe(422);
    const bad = await upload(org.api, camt053([]), { auto_allocate: "maybe" });
    expect(bad.status, bad.text).toBe(422);
    // Nothing of the refused imports was stored.
    const list = ZBankStatementList.parse((await org.api.get("/bank-statements?limit=100")).body);
    expect(list.items.every((i) => i.entries > 0 || i.payments_created === 0)).toBe(true);
  });

  it("CSV with a header guess imports", async () => {
    const csv = "Date;Amount;Currency;Name;Purpose\n20.11.2026;1.234,50;EUR;Csv Payer GmbH;Rechnung 4711\n";
    const r = await upload(org.api, csv, { format: "csv" }, { filename: "konto.csv" });
    expect([201, 422]).toContain(r.status);
    if (r.status === 201) expect(r.body).toMatchObject({ format: "csv", entries: 1 });
  });

  // detectFormat refuses a NUL only in the first 64 KiB, and not at all with format=csv; the
  // CSV parser drops control characters as the MT940 one does (PostgreSQL refuses NUL in text).
  it("CSV with NUL bytes in a name and a remittance (format=csv): imports without them", async () => {
    const csv = "Date,Amount,Currency,Name,Text\n2026-11-20,10.00,EUR,Nul\u0000 Payer\u0000,Invoice\u0000 4711\u0001\n";
    const r = await upload(org.api, csv, { format: "csv" }, { filename: "nul.csv" });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ format: "csv", entries: 1 });
    const d = ZBankStatementDetail.parse((await org.api.get(`/bank-statements/${r.body.id}`)).body);
    expect(d.items.map((i) => [i.counterparty_name, i.remittance])).toEqual([["Nul Payer", "Invoice 4711"]]);
  });

  it("list newest first; another organization's import is 404; scopes and roles", async () => {
    const r = await upload(org.api, camt053([{ amount: "5.00", name: "List" }]));
    const list = ZBankStatementList.parse((await org.api.get("/bank-statements?limit=2")).body);
    expect(list.items[0].id).toBe(r.body.id);
    expect(list).toMatchObject({ limit: 2, offset: 0 });
    expect((await org.api.get("/bank-statements?limit=0")).status).toBe(422);
    expect((await other.api.get(`/bank-statements/${r.body.id}`)).status).toBe(404);
    expect((await other.api.get("/bank-statements")).body.items.map((i: any) => i.id)).not.toContain(r.body.id);
    expect((await org.api.get("/bank-statements/not-a-uuid")).status).toBe(404);

    const reader = await apiKeyWith(org, ["payments:read"]);
    expect((await reader.get(`/bank-statements/${r.body.id}`)).status).toBe(200);
    const denied = await upload(reader, camt053([{ amount: "1.00", name: "X" }]));
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("insufficient_scope");
    const noRead = await apiKeyWith(org, ["obligations:read"]);
    expect((await noRead.get("/bank-statements")).status).toBe(403);
    const viewer = await signedIn((await userWith(org, "viewer")).email);
    expect((await viewer.get("/bank-statements")).status).toBe(200);
    const v = await upload(viewer, camt053([{ amount: "1.00", name: "X" }]));
    expect(v.status).toBe(403);
    expect(v.body.error.code).toBe("insufficient_permission");
    const noKey = await org.api.call("POST", "/bank-statements", { form: new FormData(), idempotencyKey: null });
    expect(noKey.status).toBe(400);
  });

  it("the same Idempotency-Key replays the import", async () => {
    const xml = camt053([{ amount: "7.00", name: "Replay" }]);
    const key = `import-${randomUUID()}`;
    const a = await upload(org.api, xml, {}, { idempotencyKey: key });
    const b = await upload(org.api, xml, {}, { idempotencyKey: key });
    expect(a.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.body).toEqual(a.body);
  });
});
