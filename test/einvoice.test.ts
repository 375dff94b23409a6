import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZImportResult } from "@/lib/schemas/einvoice";
import { ZMutationResult } from "@/lib/schemas/obligations";
import { apiKeyWith, newOrg, type OrgFixture } from "./support/fixtures";

// POST /obligation-imports over real HTTP: PDFs (Factur-X), safety (DTDs, entities, sizes,
// sniffing), duplicates, dry runs, credit notes, business contexts, instalments, arithmetic
// warnings, tenant isolation and permissions.

const FIX = join(__dirname, "fixtures/einvoice");
const read = (p: string) => readFileSync(join(FIX, p));
const CII1 = read("en16931/cii/CII_example1.xml"); // seller 57151520, invoice 12115118, 250.33 EUR
const UBL_BASE = read("peppol/base-example.xml"); // invoice Snippet1, 1656.25 EUR
const UBL_CONTRACT = read("peppol/Allowance-example.xml"); // contract "framework no 1"
const UBL_ORDER = read("peppol/sales-order-example.xml"); // order "NA"
const UBL_CREDIT = read("peppol/base-creditnote-correction.xml"); // credits invoice Snippet1
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
// The warnings besides "seller" (the test organizations are not the files' sellers).
const others = (w: { rule: string }[]) => w.filter((x) => x.rule !== "seller");

function form(bytes: Uint8Array, fields: Record<string, string> = {}, name = "invoice.xml") {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append("file", new Blob([new Uint8Array(bytes)], { type: "application/octet-stream" }), name);
  return f;
}

async function pdfWith(attachments: { name: string; bytes: Uint8Array }[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText("Invoice 12115118", { x: 50, y: 700 });
  for (const a of attachments) await doc.attach(a.bytes, a.name, { mimeType: "text/xml", description: "Factur-X invoice" });
  return doc.save();
}

const replaceOnce = (b: Buffer, from: string | RegExp, to: string) => {
  const s = b.toString("utf8");
  const out = s.replace(from, to);
  if (out === s) throw new Error(`doctoring failed: ${from}`);
  return Buffer.from(out);
};

describe("obligation imports", () => {
  let org: OrgFixture;
  const imp = (bytes: Uint8Array, fields?: Record<string, string>, name?: string, o: { idempotencyKey?: string } = {}) =>
    org.api.call("POST", "/obligation-imports", { form: form(bytes, fields, name), ...o });

  beforeAll(async () => {
    org = await newOrg("Import Seller GmbH");
  });

  it("imports a CII invoice: 201 with import, the registration's mutation result and warnings", async () => {
    const r = await imp(CII1);
    expect(r.status, r.text).toBe(201);
    expect(ZImportResult.parse(r.body)).toBeTruthy();
    expect(ZMutationResult.parse(r.body.result)).toBeTruthy();
    expect(r.body.import).toMatchObject({ format: "cii", document_type: "invoice", profile: "urn:cen.eu:en16931:2017", source: "xml", sha256: sha256(CII1) });
    expect(r.body.import.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(others(r.body.warnings)).toEqual([]);
    const o = r.body.result.obligation;
    expect(o).toMatchObject({
      obligation_type: "invoice",
      organization_role: "creditor",
      amount_minor: "25033",
      currency: "EUR",
      deadline: "2015-01-09",
      external_reference: { namespace: "einvoice", id: "57151520:12115118" },
      creditor: { name: "De Koksmaat" },
      debtor: { name: "ODIN 59" },
    });
    expect(r.body.result.payment_request.hosted_url).toContain("/r/");
  });

  it("refuses the same seller and invoice number again with 409 duplicate naming the obligation", async () => {
    const first = await imp(UBL_BASE);
    expect(first.status, first.text).toBe(201);
    const again = await imp(UBL_BASE);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("duplicate");
    expect(again.body.error.message).toContain(first.body.result.obligation.id);
    // The same Idempotency-Key replays the stored response instead.
    const key = `imp-${randomUUID()}`;
    const doctored = replaceOnce(UBL_BASE, "<cbc:ID>Snippet1</cbc:ID>", "<cbc:ID>Snippet-replay</cbc:ID>");
    const a = await imp(doctored, {}, "x.xml", { idempotencyKey: key });
    const b = await imp(doctored, {}, "x.xml", { idempotencyKey: key });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.body.import.id).toBe(a.body.import.id);
  });

  it("dry run: 200, import.id empty, the request instead of the result, nothing stored", async () => {
    const fresh = await newOrg("Dry Run AG");
    const before = await fresh.api.get("/obligations");
    const ctxBefore = await fresh.api.get("/business-contexts");
    const r = await fresh.api.call("POST", "/obligation-imports", { form: form(UBL_CONTRACT, { dry_run: "true" }) });
    expect(r.status, r.text).toBe(200);
    expect(r.body.import.id).toBe("");
    expect(r.body.result).toBeUndefined();
    expect(r.body.request).toMatchObject({
      obligation_type: "invoice",
      amount_minor: "612500",
      currency: "EUR",
      business_context: { invoice_number: "Snippet1" },
      external_reference: { namespace: "einvoice", id: "99887766:Snippet1" },
    });
    expect((await fresh.api.get("/obligations")).body.items.length).toBe(before.body.items.length);
    expect((await fresh.api.get("/business-contexts")).body.items.length).toBe(ctxBefore.body.items.length);
    // ... so the real import afterwards is no duplicate.
    const real = await fresh.api.call("POST", "/obligation-imports", { form: form(UBL_CONTRACT, { dry_run: "false" }) });
    expect(real.status, real.text).toBe(201);
  });

  it("a credit note reverses the roles and keeps the preceding invoice in the description", async () => {
    const fresh = await newOrg("Credit Seller");
    const r = await fresh.api.call("POST", "/obligation-imports", { form: form(UBL_CREDIT) });
    expect(r.status, r.text).toBe(201);
    expect(r.body.import.document_type).toBe("credit_note");
    const o = r.body.result.obligation;
    expect(o.organization_role).toBe("debtor"); // we are the seller, and the seller owes the buyer
    expect(o.creditor.name).toBe("Buyer Official Name");
    expect(o.debtor.name).toBe("SupplierOfficialName Ltd");
    expect(o.business_context.description).toContain("Snippet1");
    // As the buyer of the credit note, we are its creditor.
    const buyer = await newOrg("Credit Buyer");
    const rb = await buyer.api.call("POST", "/obligation-imports", { form: form(UBL_CREDIT, { organization_role: "debtor" }) });
    expect(rb.status, rb.text).toBe(201);
    expect(rb.body.result.obligation.organization_role).toBe("creditor");
  });

  it("organization_role debtor: we are the buyer of an invoice", async () => {
    const buyer = await newOrg("ODIN 59");
    const r = await buyer.api.call("POST", "/obligation-imports", { form: form(CII1, { organization_role: "debtor" }) });
    expect(r.status, r.text).toBe(201);
    expect(r.body.result.obligation).toMatchObject({ organization_role: "debtor", creditor: { name: "De Koksmaat" }, debtor: { name: "ODIN 59" } });
    const bad = await buyer.api.call("POST", "/obligation-imports", { form: form(CII1, { organization_role: "payer" }) });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain("organization_role");
  });

  it("creates business contexts for order and contract references, then reuses them", async () => {
    const fresh = await newOrg("Context Co");
    const a = await fresh.api.call("POST", "/obligation-imports", { form: form(UBL_CONTRACT) });
    expect(a.status, a.text).toBe(201);
    const contract = a.body.result.obligation.contexts.find((c: { type: string }) => c.type === "external_object");
    expect(contract).toMatchObject({ type_label: "Contract", reference: "framework no 1" });
    const b = await fresh.api.call("POST", "/obligation-imports", {
      form: form(replaceOnce(UBL_CONTRACT, "<cbc:ID>Snippet1</cbc:ID>", "<cbc:ID>Snippet2</cbc:ID>")),
    });
    expect(b.status, b.text).toBe(201);
    expect(b.body.result.obligation.contexts.map((c: { id: string }) => c.id)).toContain(contract.id);
    // The sales-order example is invoice Snippet1 of the same seller too: a duplicate unless renumbered.
    const order = await fresh.api.call("POST", "/obligation-imports", {
      form: form(replaceOnce(UBL_ORDER, "<cbc:ID>Snippet1</cbc:ID>", "<cbc:ID>Snippet3</cbc:ID>")),
    });
    expect(order.status, order.text).toBe(201);
    expect(order.body.result.obligation.contexts).toEqual([expect.objectContaining({ type: "order", reference: "NA" })]);
    const list = await fresh.api.get("/business-contexts");
    expect(list.body.items.filter((c: { reference: string }) => c.reference === "framework no 1")).toHaveLength(1);
  });

  it("instalments that add up to BT-115 become fixed payment terms; others are a warning", async () => {
    const fresh = await newOrg("Instalments SA");
    const terms =
      '<cac:PaymentTerms><cbc:Note>First half</cbc:Note><cbc:Amount currencyID="EUR">1000.00</cbc:Amount><cbc:PaymentDueDate>2018-01-15</cbc:PaymentDueDate></cac:PaymentTerms>' +
      '<cac:PaymentTerms><cbc:Note>Second half</cbc:Note><cbc:Amount currencyID="EUR">656.25</cbc:Amount><cbc:PaymentDueDate>2018-02-15</cbc:PaymentDueDate></cac:PaymentTerms>';
    const ok = replaceOnce(UBL_BASE, /<cac:PaymentTerms>[\s\S]*?<\/cac:PaymentTerms>/, terms);
    const r = await fresh.api.call("POST", "/obligation-imports", { form: form(ok) });
    expect(r.status, r.text).toBe(201);
    expect(r.body.result.obligation.payment_terms).toEqual([
      expect.objectContaining({
        sequence: 1,
        amount_type: "fixed",
        fixed_amount_minor: "100000",
        due_rule: "specific_date",
        due_date: "2018-01-15",
        label: "First half",
      }),
      expect.objectContaining({ sequence: 2, amount_type: "fixed", fixed_amount_minor: "65625", due_date: "2018-02-15" }),
    ]);
    const off = replaceOnce(ok, "<cbc:ID>Snippet1</cbc:ID>", "<cbc:ID>Snippet-off</cbc:ID>").toString().replace("656.25", "600.00");
    const w = await fresh.api.call("POST", "/obligation-imports", { form: form(Buffer.from(off)) });
    expect(w.status, w.text).toBe(201);
    expect(w.body.result.obligation.payment_terms).toEqual([]);
    expect(w.body.warnings.map((x: { rule: string }) => x.rule)).toContain("instalments");

    // CII: SpecifiedTradePaymentTerms with PartialPaymentAmount.
    const cii = replaceOnce(
      CII1,
      /<ram:SpecifiedTradePaymentTerms>[\s\S]*?<\/ram:SpecifiedTradePaymentTerms>/,
      '<ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format="102">20150109</udt:DateTimeString></ram:DueDateDateTime><ram:PartialPaymentAmount>200.33</ram:PartialPaymentAmount></ram:SpecifiedTradePaymentTerms>' +
        '<ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format="102">20150209</udt:DateTimeString></ram:DueDateDateTime><ram:PartialPaymentAmount>50</ram:PartialPaymentAmount></ram:SpecifiedTradePaymentTerms>',
    );
    const c = await fresh.api.call("POST", "/obligation-imports", { form: form(cii) });
    expect(c.status, c.text).toBe(201);
    expect(c.body.result.obligation.payment_terms.map((t: { fixed_amount_minor: string; due_date: string }) => [t.fixed_amount_minor, t.due_date])).toEqual([
      ["20033", "2015-01-09"],
      ["5000", "2015-02-09"],
    ]);
  });

  it("arithmetic rules BR-CO-10/13/15/16 are warnings with their rule ids", async () => {
    const fresh = await newOrg("Arithmetic Ltd");
    // A line's net amount changed: the sum of lines no longer equals BT-106.
    const line = replaceOnce(CII1, "<ram:LineTotalAmount>19.9</ram:LineTotalAmount>", "<ram:LineTotalAmount>19.90000001</ram:LineTotalAmount>");
    const r = await fresh.api.call("POST", "/obligation-imports", { form: form(line) });
    expect(r.status, r.text).toBe(201);
    expect(others(r.body.warnings)).toEqual([expect.objectContaining({ rule: "BR-CO-10" })]);
    // Totals changed: BT-109, BT-112 and BT-115 each disagree with their formula.
    const totals = replaceOnce(
      replaceOnce(
        replaceOnce(CII1, "<ram:TaxBasisTotalAmount>229.6<", "<ram:TaxBasisTotalAmount>229.7<"),
        "<ram:GrandTotalAmount>250.33<",
        "<ram:GrandTotalAmount>250.30<",
      ),
      "<ram:ID>12115118</ram:ID>",
      "<ram:ID>12115118-B</ram:ID>",
    );
    const t = await fresh.api.call("POST", "/obligation-imports", { form: form(totals) });
    expect(t.status, t.text).toBe(201);
    expect(
      others(t.body.warnings)
        .map((w: { rule: string }) => w.rule)
        .sort(),
    ).toEqual(["BR-CO-13", "BR-CO-15", "BR-CO-16"]);
    expect(t.body.warnings[0].message).toMatch(/BT-/);
  });

  it("without BT-9 the deadline is the issue date BT-2, with a warning", async () => {
    const fresh = await newOrg("No Due Date");
    const noDue = replaceOnce(UBL_BASE, /<cbc:DueDate>[^<]*<\/cbc:DueDate>/, "");
    const r = await fresh.api.call("POST", "/obligation-imports", { form: form(noDue) });
    expect(r.status, r.text).toBe(201);
    expect(r.body.result.obligation.deadline).toBe("2017-11-13");
    expect(others(r.body.warnings)).toEqual([expect.objectContaining({ rule: "BT-9" })]);
  });

  it("names the missing mandatory business terms", async () => {
    const broken = replaceOnce(replaceOnce(CII1, "<ram:ID>12115118</ram:ID>", "<ram:ID></ram:ID>"), /<ram:DuePayableAmount>[^<]*<\/ram:DuePayableAmount>/, "");
    const r = await imp(broken);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe("einvoice_unreadable");
    expect(r.body.error.message).toContain("BT-1 invoice number");
    expect(r.body.error.message).toContain("BT-115 amount due for payment");
  });

  it("a Factur-X PDF imports under every listed attachment name, with source pdf", async () => {
    for (const name of ["factur-x.xml", "zugferd-invoice.xml", "ZUGFeRD-invoice.xml", "xrechnung.xml"]) {
      const pdf = await pdfWith([{ name, bytes: CII1 }]);
      const fresh = await newOrg(`PDF ${name}`);
      const r = await fresh.api.call("POST", "/obligation-imports", { form: form(pdf, {}, "rechnung.bin") });
      expect(r.status, `${name}: ${r.text}`).toBe(201);
      expect(r.body.import).toMatchObject({ source: "pdf", format: "cii", sha256: sha256(pdf) });
      expect(r.body.result.obligation.amount_minor).toBe("25033");
      const detail = await fresh.api.get(`/obligations/${r.body.result.obligation.id}`);
      expect(detail.body.documents[0]).toMatchObject({ kind: "invoice", content_type: "application/pdf", sha256: sha256(pdf) });
    }
  }, 180_000);

  it("a PDF without an invoice attachment is 422 einvoice_unreadable", async () => {
    for (const pdf of [await pdfWith([]), await pdfWith([{ name: "notes.xml", bytes: CII1 }])]) {
      const r = await imp(pdf, {}, "factur-x.pdf");
      expect(r.status, r.text).toBe(422);
      expect(r.body.error.code).toBe("einvoice_unreadable");
    }
  });

  describe("no DTD or entity is ever resolved", () => {
    let server: Server;
    let hits = 0;
    beforeAll(async () => {
      server = createServer((_req, res) => {
        hits++;
        res.end("<x>pwned</x>");
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it("external entities (file and HTTP), external DTDs and billion laughs are 422", async () => {
      const port = (server.address() as AddressInfo).port;
      const body = CII1.toString("utf8").replace(/^<\?xml[^>]*>/, "");
      const withDoctype = (doctype: string, inject = "") =>
        Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${doctype}\n${body.replace("12115118", `12115118${inject}`)}`);
      const attacks = [
        withDoctype('<!DOCTYPE rsm:CrossIndustryInvoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>', "&xxe;"),
        withDoctype(`<!DOCTYPE rsm:CrossIndustryInvoice [<!ENTITY xxe SYSTEM "http://127.0.0.1:${port}/entity">]>`, "&xxe;"),
        withDoctype(`<!DOCTYPE rsm:CrossIndustryInvoice SYSTEM "http://127.0.0.1:${port}/dtd">`),
        withDoctype(`<!DOCTYPE rsm:CrossIndustryInvoice [<!ENTITY % p SYSTEM "http://127.0.0.1:${port}/param"> %p;]>`),
        withDoctype(
          '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;"><!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;"><!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;"><!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;"><!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;"><!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">]>',
          "&lol9;",
        ),
      ];
      const fresh = await newOrg("XXE Target");
      for (const bytes of attacks) {
        const r = await fresh.api.call("POST", "/obligation-imports", { form: form(bytes) });
        expect(r.status, r.text).toBe(422);
        expect(r.body.error.code).toBe("einvoice_unreadable");
        expect(r.text).not.toContain("root:");
        expect(r.text).not.toContain("pwned");
      }
      // Inside a PDF too.
      const pdf = await pdfWith([{ name: "factur-x.xml", bytes: attacks[1] }]);
      const p = await fresh.api.call("POST", "/obligation-imports", { form: form(pdf) });
      expect(p.status, p.text).toBe(422);
      expect(hits).toBe(0);
      expect((await fresh.api.get("/obligations")).body.items).toEqual([]);
    }, 180_000);
  });

  it("content that is neither an XML invoice nor a PDF is 415, whatever its name", async () => {
    const samples: [Uint8Array, string][] = [
      [randomBytes(4096), "factur-x.pdf"],
      [Buffer.from("just some text"), "invoice.xml"],
      [Buffer.from('<?xml version="1.0"?><Order xmlns="urn:example"><ID>1</ID></Order>'), "invoice.xml"],
      [Buffer.from("%PNG not really"), "x.png"],
    ];
    for (const [bytes, name] of samples) {
      const r = await imp(bytes, {}, name);
      expect(r.status, r.text).toBe(415);
      expect(r.body.error.code).toBe("unsupported_media_type");
    }
  });

  it("over 10 MiB is 413; deep nesting is 422", async () => {
    // Well over the bound (the request's Content-Length already exceeds it).
    const big = Buffer.concat([CII1, Buffer.alloc(10 * 1024 * 1024 + 256 * 1024 - CII1.length, 0x20)]);
    // The server answers 413 from the Content-Length before reading the body; the client
    // may see that answer or, still writing, the closed connection (EPIPE). Either way
    // nothing is imported.
    const fresh = await newOrg("Too Big");
    const r = await fresh.api.call("POST", "/obligation-imports", { form: form(big) }).catch((e: { cause?: { code?: string } }) => e);
    if ("status" in r) expect(r.status).toBe(413);
    else expect(["EPIPE", "ECONNRESET", "UND_ERR_SOCKET"]).toContain(r.cause?.code);
    expect((await fresh.api.get("/obligations")).body.items).toEqual([]);
    const deep = Buffer.from(
      `<?xml version="1.0"?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">${"<a>".repeat(5000)}${"</a>".repeat(5000)}</Invoice>`,
    );
    const d = await imp(deep);
    expect(d.status, d.text).toBe(422);
    expect(d.body.error.code).toBe("einvoice_unreadable");
  });

  it("other organizations neither see the import nor collide with it", async () => {
    const a = await newOrg("Tenant A");
    const b = await newOrg("Tenant B");
    const ra = await a.api.call("POST", "/obligation-imports", { form: form(CII1) });
    expect(ra.status).toBe(201);
    expect((await b.api.get(`/obligations/${ra.body.result.obligation.id}`)).status).toBe(404);
    const rb = await b.api.call("POST", "/obligation-imports", { form: form(CII1) });
    expect(rb.status, rb.text).toBe(201);
    expect(rb.body.result.obligation.id).not.toBe(ra.body.result.obligation.id);
  });

  it("needs obligations:write (403 for a read-only key) and an Idempotency-Key", async () => {
    const readOnly = await apiKeyWith(org, ["obligations:read"]);
    const r = await readOnly.call("POST", "/obligation-imports", { form: form(CII1) });
    expect(r.status).toBe(403);
    const noKey = await org.api.call("POST", "/obligation-imports", { form: form(CII1), idempotencyKey: null });
    expect(noKey.status).toBe(400);
    const none = await org.api.call("POST", "/obligation-imports", { form: new FormData() });
    expect(none.status).toBe(422);
  });
});
