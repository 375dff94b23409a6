import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newOrg, signedIn } from "./support/fixtures";

// The e-invoice import's seller: the bank-assigned creditor identifier (BT-90) is no seller
// identifier, an import "as seller" of another company's invoice warns, and the result names
// the stored original file's document.
const FIX = join(__dirname, "fixtures/einvoice");
const CII1 = readFileSync(join(FIX, "en16931/cii/CII_example1.xml")); // seller "De Koksmaat", legal id 57151520, IBAN NL57 RABO 0107307510
const UBL_BASE = readFileSync(join(FIX, "peppol/base-example.xml")); // seller identifier 99887766

function form(bytes: Uint8Array, fields: Record<string, string> = {}) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append("file", new Blob([new Uint8Array(bytes)]), "invoice.xml");
  return f;
}
const rules = (w: { rule: string }[]) => w.map((x) => x.rule);

describe("e-invoice import: the seller", () => {
  it("takes BT-29, not the SEPA creditor identifier BT-90 that XRechnung writes as a PartyIdentification", async () => {
    const org = await newOrg("SEPA Creditor Test");
    const xrechnung = Buffer.from(
      UBL_BASE.toString("utf8").replace(
        "<cac:PartyIdentification>",
        '<cac:PartyIdentification><cbc:ID schemeID="SEPA">DE98ZZZ09999999999</cbc:ID></cac:PartyIdentification><cac:PartyIdentification>',
      ),
    );
    const r = await org.api.call("POST", "/obligation-imports", { form: form(xrechnung, { dry_run: "true" }) });
    expect(r.status, r.text).toBe(200);
    expect(r.body.request.external_reference).toEqual({ namespace: "einvoice", id: "99887766:Snippet1" });
  });

  it("warns when the organization imports as seller an invoice whose seller it is not", async () => {
    const other = await newOrg("Someone Else Ltd");
    const r = await other.api.call("POST", "/obligation-imports", { form: form(CII1, { dry_run: "true" }) });
    expect(r.status, r.text).toBe(200);
    expect(rules(r.body.warnings)).toContain("seller");
    expect(r.body.warnings.find((w: { rule: string }) => w.rule === "seller").message).toMatch(/De Koksmaat.*organization_role debtor/);
    // As buyer, no such warning.
    const asBuyer = await other.api.call("POST", "/obligation-imports", { form: form(CII1, { dry_run: "true", organization_role: "debtor" }) });
    expect(asBuyer.status, asBuyer.text).toBe(200);
    expect(rules(asBuyer.body.warnings)).not.toContain("seller");
  });

  it("does not warn when the seller is the organization by name or by a payee IBAN of its bank details", async () => {
    const byName = await newOrg("De Koksmaat B.V.");
    const n = await byName.api.call("POST", "/obligation-imports", { form: form(CII1, { dry_run: "true" }) });
    expect(n.status, n.text).toBe(200);
    expect(rules(n.body.warnings)).not.toContain("seller");

    const byIban = await newOrg("Trading Name Differs");
    const owner = await signedIn(byIban.email); // bank details: a signed-in owner only
    const put = await owner.call("PUT", "/payment-instructions/EUR", {
      body: { account_holder: "Trading Name Differs", iban: "NL57 RABO 0107 3075 10" },
      headers: { "idempotency-key": `iban-${Date.now()}` },
    });
    expect(put.status, put.text).toBe(200);
    const i = await byIban.api.call("POST", "/obligation-imports", { form: form(CII1, { dry_run: "true" }) });
    expect(i.status, i.text).toBe(200);
    expect(rules(i.body.warnings)).not.toContain("seller");
  });

  it("names the stored original file's document_id in the result, and that document holds the file", async () => {
    const org = await newOrg("De Koksmaat");
    const r = await org.api.call("POST", "/obligation-imports", { form: form(CII1) });
    expect(r.status, r.text).toBe(201);
    const documentId = r.body.result.document_id;
    expect(documentId).toMatch(/^[0-9a-f-]{36}$/);
    const obligationId = r.body.result.obligation.id;
    const d = await org.api.call("GET", `/obligations/${obligationId}/documents/${documentId}`);
    expect(d.status, d.text).toBe(200);
    expect(Buffer.from(d.text).equals(CII1)).toBe(true);
  });
});
