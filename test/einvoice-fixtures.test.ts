import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { newOrg, type OrgFixture } from "./support/fixtures";
import { parseDom, value, type El } from "./support/xpath";

// Every third-party example invoice (EN 16931 UBL and CII examples, Peppol BIS examples,
// test/fixtures/einvoice/*/SOURCE.txt): each valid invoice or credit note in one of the
// service's currencies becomes an obligation whose invoice number, amount, currency,
// deadline and parties match the file as read here, independently, by path; files in other
// currencies or with nothing payable are refused with their error code.

const ROOT = join(__dirname, "fixtures/einvoice");
const SEVEN = ["CAD", "USD", "EUR", "GBP", "JPY", "AUD", "CHF"];
const files = ["en16931/cii", "en16931/ubl", "peppol"].flatMap((d) =>
  readdirSync(join(ROOT, d))
    .filter((f) => /\.xml$/i.test(f))
    .map((f) => join(d, f)),
);

type Expected = { number: string; currency: string; due: string; deadline: string; seller: string; buyer: string; credit: boolean };

const squash = (s: string) => s.replace(/\s+/g, " ").trim();
const cii102 = (s: string) => (/^\d{8}$/.test(s) ? `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6)}` : s);

function expected(doc: El): Expected {
  const ubl = doc.children[0].local !== "CrossIndustryInvoice";
  if (ubl) {
    const r = doc.children[0].local === "CreditNote" ? "/cn:CreditNote" : "/inv:Invoice";
    const party = (p: string) =>
      squash(value(doc, `${r}/cac:${p}/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName`) || value(doc, `${r}/cac:${p}/cac:Party/cac:PartyName/cbc:Name`));
    return {
      number: value(doc, `${r}/cbc:ID`),
      currency: value(doc, `${r}/cbc:DocumentCurrencyCode`),
      due: value(doc, `${r}/cac:LegalMonetaryTotal/cbc:PayableAmount`),
      deadline: value(doc, `${r}/cbc:DueDate`) || value(doc, `${r}/cac:PaymentMeans/cbc:PaymentDueDate`) || value(doc, `${r}/cbc:IssueDate`),
      seller: party("AccountingSupplierParty"),
      buyer: party("AccountingCustomerParty"),
      credit: r === "/cn:CreditNote",
    };
  }
  const tx = "/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction";
  const settlement = `${tx}/ram:ApplicableHeaderTradeSettlement`;
  return {
    number: value(doc, "/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID"),
    currency: value(doc, `${settlement}/ram:InvoiceCurrencyCode`),
    due: value(doc, `${settlement}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:DuePayableAmount`),
    deadline: cii102(
      value(doc, `${settlement}/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString`) ||
        value(doc, "/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString"),
    ),
    seller: squash(value(doc, `${tx}/ram:ApplicableHeaderTradeAgreement/ram:SellerTradeParty/ram:Name`)),
    buyer: squash(value(doc, `${tx}/ram:ApplicableHeaderTradeAgreement/ram:BuyerTradeParty/ram:Name`)),
    credit: value(doc, "/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:TypeCode") === "381",
  };
}

// "1656.25" EUR -> "165625"; JPY has no minor digits. Plain string arithmetic, no floats.
function minor(amount: string, currency: string): bigint {
  const digits = currency === "JPY" ? 0 : 2;
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!m) throw new Error(`not an amount: ${amount}`);
  const frac = (m[3] ?? "").padEnd(digits, "0");
  if (frac.length > digits && /[1-9]/.test(frac.slice(digits))) throw new Error(`too precise: ${amount}`);
  return BigInt(`${m[1]}${m[2]}${frac.slice(0, digits)}`);
}

function form(name: string, bytes: Buffer, fields: Record<string, string> = {}) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append("file", new Blob([new Uint8Array(bytes)], { type: "application/octet-stream" }), name);
  return f;
}

describe("e-invoice fixtures", () => {
  let refusedOrg: OrgFixture;
  beforeAll(async () => {
    refusedOrg = await newOrg("Fixture refusals");
  });

  it("covers the example folders", () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
  });

  const outcome = { imported: 0, currency: 0, nothingPayable: 0 };
  // Some examples share an invoice number (and seller): each organization imports a number
  // once, so a number seen before goes to the next organization of the pool.
  const pool: { org: OrgFixture; numbers: Set<string> }[] = [];
  async function orgFor(number: string): Promise<OrgFixture> {
    let slot = pool.find((p) => !p.numbers.has(number));
    if (!slot) {
      slot = { org: await newOrg(`Fixture importer ${pool.length + 1}`), numbers: new Set() };
      pool.push(slot);
    }
    slot.numbers.add(number);
    return slot.org;
  }

  for (const file of files) {
    it(file, async () => {
      const bytes = readFileSync(join(ROOT, file));
      const doc = parseDom(bytes.toString("utf8"));
      const e = expected(doc);
      if (!SEVEN.includes(e.currency)) {
        const r = await refusedOrg.api.call("POST", "/obligation-imports", { form: form(file, bytes) });
        expect(r.status, r.text).toBe(422);
        expect(r.body.error.code).toBe("einvoice_unreadable");
        expect(r.body.error.message).toContain("BT-5");
        outcome.currency++;
        return;
      }
      const amount = minor(e.due, e.currency);
      if (amount <= 0n) {
        const r = await refusedOrg.api.call("POST", "/obligation-imports", { form: form(file, bytes) });
        expect(r.status, r.text).toBe(422);
        expect(r.body.error.code).toBe("nothing_payable");
        outcome.nothingPayable++;
        return;
      }
      const org = await orgFor(e.number);
      const r = await org.api.call("POST", "/obligation-imports", { form: form(file.split("/").pop()!, bytes) });
      expect(r.status, r.text).toBe(201);
      expect(r.body.import.source).toBe("xml");
      expect(r.body.import.format).toBe(doc.children[0].local === "CrossIndustryInvoice" ? "cii" : "ubl");
      expect(r.body.import.document_type).toBe(e.credit ? "credit_note" : "invoice");
      const o = r.body.result.obligation;
      expect(o.business_context.invoice_number).toBe(e.number);
      expect(o.amount_minor).toBe(amount.toString());
      expect(o.currency).toBe(e.currency);
      expect(o.deadline).toBe(e.deadline);
      expect(o.creditor.name).toBe(e.credit ? e.buyer : e.seller);
      expect(o.debtor.name).toBe(e.credit ? e.seller : e.buyer);
      expect(o.organization_role).toBe(e.credit ? "debtor" : "creditor");
      expect(r.body.result.event_type).toBe("obligation.registered");

      const detail = await org.api.get(`/obligations/${o.id}`);
      expect(detail.status).toBe(200);
      expect(detail.body.documents).toHaveLength(1);
      expect(detail.body.documents[0]).toMatchObject({
        kind: "invoice",
        content_type: "application/xml",
        size_bytes: bytes.length,
        sha256: r.body.import.sha256,
      });
      outcome.imported++;
    }, 180_000);
  }

  it("imported the valid ones and refused the others", () => {
    expect(outcome.imported).toBeGreaterThanOrEqual(15);
    expect(outcome.currency).toBeGreaterThanOrEqual(15);
    expect(outcome.nothingPayable).toBeGreaterThanOrEqual(1);
  });
});
