import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseStatement } from "./parse-statement";
import { StatementError } from "./types";

const DIR = path.resolve(import.meta.dirname, "../../test/fixtures/bank/camt");
const bytes = (s: string) => new TextEncoder().encode(s);
const file = (name: string) => new Uint8Array(readFileSync(path.join(DIR, name)));

// An independent reader for the test: regular expressions over the raw XML (no XML parser,
// none of the parser's code). Good enough for these files, which never nest an element in one
// of the same name on the paths read here.
const blocks = (xml: string, tag: string): string[] => [...xml.matchAll(new RegExp(`<${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => m[1]);
const at = (xml: string | undefined, p: string): string | undefined =>
  p.split("/").reduce<string | undefined>((x, t) => (x === undefined ? undefined : blocks(x, t)[0]), xml);
const val = (xml: string | undefined, p: string) => at(xml, p)?.trim() ?? "";
const ccy = (xml: string | undefined) => /<Amt\s+Ccy="([A-Z]{3})"/.exec(xml ?? "")?.[1] ?? "";
const squash = (s: string) => s.replace(/\s+/g, " ").trim();

type Row = {
  direction: string;
  amount: string;
  currency: string;
  bookedOn: string;
  counterpartyName: string;
  structuredReference: string;
  unstructured: string;
};

// What the file says, per the documented rules: booked entries; a batch with an amount on every
// TxDtls is split; the counterparty is the debtor of a credit and the creditor of a debit.
function expectedRows(xml: string): Row[] {
  const rows: Row[] = [];
  const created = (val(xml, "Stmt/CreDtTm") || val(xml, "Ntfctn/CreDtTm") || val(xml, "GrpHdr/CreDtTm")).slice(0, 10);
  for (const ntry of blocks(xml, "Ntry")) {
    const sts = val(ntry, "Sts")
      .replace(/<\/?Cd>/g, "")
      .trim();
    if (sts !== "BOOK") continue;
    const cdi = val(ntry, "CdtDbtInd");
    const booked = (val(ntry, "BookgDt/Dt") || val(ntry, "BookgDt/DtTm") || val(ntry, "ValDt/Dt") || created).slice(0, 10);
    const txs = blocks(ntry, "TxDtls");
    const name = (tx: string, incoming: boolean) => {
      const rp = at(tx, "RltdPties");
      const party = incoming ? at(rp, "Dbtr") : at(rp, "Cdtr");
      const ultimate = incoming ? at(rp, "UltmtDbtr") : at(rp, "UltmtCdtr");
      return squash(val(party, "Nm") || val(party, "FinInstnId/Nm") || val(ultimate, "Nm"));
    };
    const rmt = (tx: string) => squash([...blocks(tx, "Ustrd"), ...blocks(tx, "AddtlRmtInf")].join(" "));
    const ref = (tx: string) => val(tx, "CdtrRefInf/Ref");
    const split = txs.length > 1 && txs.every((tx) => /<Amt\s/.test(tx));
    if (split) {
      for (const tx of txs) {
        const own = val(tx, "CdtDbtInd") || cdi;
        const amtEl = /<Amt\s[^>]*>([^<]*)<\/Amt>/.exec(tx) as RegExpExecArray;
        rows.push({
          direction: own === "CRDT" ? "incoming" : "outgoing",
          amount: amtEl[1].trim(),
          currency: ccy(tx),
          bookedOn: booked,
          counterpartyName: name(tx, own === "CRDT"),
          structuredReference: ref(tx),
          unstructured: rmt(tx),
        });
      }
    } else {
      const amount = /<Amt\s[^>]*>([^<]*)<\/Amt>/.exec(ntry) as RegExpExecArray;
      rows.push({
        direction: cdi === "CRDT" ? "incoming" : "outgoing",
        amount: amount[1].trim(),
        currency: ccy(ntry),
        bookedOn: booked,
        counterpartyName: txs.map((tx) => name(tx, cdi === "CRDT")).find(Boolean) ?? "",
        structuredReference: txs.map(ref).find(Boolean) ?? "",
        unstructured: squash(txs.map(rmt).join(" ")) || squash(val(ntry, "AddtlNtryInf")),
      });
    }
  }
  return rows;
}

// Transactions per file, counted by eye, as a check on the reader above.
const COUNTS: Record<string, number> = {
  "camt053.v2.all-balance-types.xml": 1,
  "camt053.v2.five.decimals.xml": 1,
  "camt053.v2.minimal.ultimate.xml": 1,
  "camt053.v2.minimal.xml": 1,
  "camt053.v2.multi.statement.xml": 2,
  "camt053.v2.with-account-name.xml": 1,
  "camt053.v2.with-party-ids.xml": 1,
  "camt053.v3.xml": 1,
  "camt053.v4.xml": 1,
  "camt053.v8.xml": 1,
  "camt054.v2.with-account-name.xml": 1,
  "camt054.v2.xml": 1, // a batch of 3 TxDtls without amounts: cannot be split, one transaction
  "camt054.v4.xml": 3, // a batch of 3 TxDtls with amounts: split
  "camt054.v8-with-UETR.xml": 1,
  "camt054.v8-with-financial-institution.xml": 1,
  "camt054.v8.xml": 3,
  "camt53.only-Dt-with-DtTm.xml": 0, // balances only
};

describe("camt fixtures (genkgo/camt test data, MIT)", () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith(".xml"));

  it("covers every fixture file", () => {
    expect(files.sort()).toEqual([...Object.keys(COUNTS), "camt053.v2.wrong.xml"].sort());
  });

  for (const name of Object.keys(COUNTS)) {
    it(`${name}: every booked transaction as the file says`, () => {
      const xml = readFileSync(path.join(DIR, name), "utf8");
      const s = parseStatement(file(name));
      expect(s.format).toBe(name.startsWith("camt054") ? "camt.054" : "camt.053");
      const want = expectedRows(xml);
      expect(want).toHaveLength(COUNTS[name]);
      expect(
        s.transactions.map((t) => ({
          direction: t.direction,
          amount: t.amount,
          currency: t.currency,
          bookedOn: t.bookedOn,
          counterpartyName: t.counterpartyName,
          structuredReference: t.structuredReference,
          unstructured: t.unstructured,
        })),
      ).toEqual(want);
      expect(s.transactions.map((t) => t.index)).toEqual(want.map((_, i) => i));
    });
  }

  it("camt053.v2.wrong.xml is malformed on purpose (a BkToCstmrStmt without Stmt) and refused naming the element", () => {
    expect(() => parseStatement(file("camt053.v2.wrong.xml"))).toThrow(/BkToCstmrStmt: no Stmt element/);
    try {
      parseStatement(file("camt053.v2.wrong.xml"));
    } catch (e) {
      expect((e as StatementError).kind).toBe("unreadable");
    }
  });

  it("reads accounts, periods, references and v8 party names", () => {
    const v2 = parseStatement(file("camt053.v2.minimal.xml"));
    expect(v2.account).toEqual({ iban: "NL26VAYB8060476890", identifier: "", currency: "EUR" });
    expect(v2.period).toEqual({ from: "2007-10-18", to: "2007-10-18" });
    expect(v2.transactions[0]).toMatchObject({
      counterpartyName: "NAME NAME",
      counterpartyAccount: "NL56AGDH9619008421",
      valueOn: "2015-01-02",
      bankTransactionCode: "544",
    });
    const v3 = parseStatement(file("camt053.v3.xml"));
    expect(v3.account).toEqual({ iban: "", identifier: "NL26VAYB8060476890", currency: "EUR" });
    // The entry amount is what moved on the account; TxDtls/Amt 105.750 is not used for a single transaction.
    expect(v3.transactions[0]).toMatchObject({ amount: "8.85", accountServicerReference: "XXXXXXXXXXXXXXXXXXXXXXEUR", bankTransactionCode: "PMNT/RCDT/DMCT" });
    const v8 = parseStatement(file("camt053.v8.xml"));
    expect(v8.transactions[0]).toMatchObject({ counterpartyName: "NAME NAME", bookedOn: "2014-12-31", endToEndId: "MUELL/FINP/RA12345" });
    const five = parseStatement(file("camt053.v2.five.decimals.xml"));
    expect(five.transactions[0].amount).toBe("8.850"); // kept as written; the importer decides
    const uetr = parseStatement(file("camt054.v8-with-UETR.xml"));
    expect(uetr.transactions[0].uetr).toBe("255ae394-9965-4438-ac86-f406feada396");
    const multi = parseStatement(file("camt053.v2.multi.statement.xml"));
    expect(multi.transactions.map((t) => [t.direction, t.counterpartyName, t.endToEndId])).toEqual([
      ["incoming", "", "000000001"],
      ["outgoing", "Company Name 2", "000000002"],
    ]);
    expect(parseStatement(file("camt053.v2.minimal.ultimate.xml")).transactions[0].counterpartyName).toBe("DEBTOR NAME NM");
  });
});

const doc = (entries: string, version = "08") => `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${version}"><BkToCstmrStmt>
<GrpHdr><MsgId>M1</MsgId><CreDtTm>2024-03-01T10:00:00</CreDtTm></GrpHdr>
<Stmt><Id>S1</Id><CreDtTm>2024-03-01T10:00:00</CreDtTm><FrToDt><FrDtTm>2024-02-01T00:00:00</FrDtTm><ToDtTm>2024-02-29T23:59:59</ToDtTm></FrToDt>
<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>${entries}</Stmt></BkToCstmrStmt></Document>`;

describe("generated camt.053", () => {
  it("splits a batch booking into its 3 transactions, each with its own amount, party and remittance", () => {
    const tx = (n: number, amt: string, name: string, ref: string) =>
      `<TxDtls><Refs><AcctSvcrRef>REF-${n}</AcctSvcrRef><EndToEndId>E2E-${n}</EndToEndId></Refs><Amt Ccy="EUR">${amt}</Amt><CdtDbtInd>CRDT</CdtDbtInd>
       <RltdPties><Dbtr><Pty><Nm>${name}</Nm></Pty></Dbtr><DbtrAcct><Id><IBAN>FR7630006000011234567890189</IBAN></Id></DbtrAcct></RltdPties>
       <RmtInf><Ustrd>Invoice ${ref}</Ustrd><Strd><CdtrRefInf><Ref>RF18539007547034</Ref></CdtrRefInf></Strd></RmtInf></TxDtls>`;
    const s = parseStatement(
      bytes(
        doc(`<Ntry><Amt Ccy="EUR">600.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2024-02-15</Dt></BookgDt>
        <ValDt><Dt>2024-02-16</Dt></ValDt><AcctSvcrRef>BATCH-1</AcctSvcrRef><NtryDtls><Btch><NbOfTxs>3</NbOfTxs></Btch>
        ${tx(1, "100.00", "A &amp; B GmbH", "INV-1")}${tx(2, "200.00", "C Ltd", "INV-2")}${tx(3, "300.00", "D SA", "INV-3")}</NtryDtls></Ntry>
        <Ntry><Amt Ccy="EUR">5.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>PDNG</Cd></Sts><BookgDt><Dt>2024-02-16</Dt></BookgDt></Ntry>`),
      ),
    );
    expect(s.period).toEqual({ from: "2024-02-01", to: "2024-02-29" });
    expect(s.transactions).toHaveLength(3); // the pending entry is not a booked transaction
    expect(s.transactions.map((t) => [t.index, t.amount, t.counterpartyName, t.unstructured, t.accountServicerReference, t.bookedOn, t.valueOn])).toEqual([
      [0, "100.00", "A & B GmbH", "Invoice INV-1", "REF-1", "2024-02-15", "2024-02-16"],
      [1, "200.00", "C Ltd", "Invoice INV-2", "REF-2", "2024-02-15", "2024-02-16"],
      [2, "300.00", "D SA", "Invoice INV-3", "REF-3", "2024-02-15", "2024-02-16"],
    ]);
    expect(s.transactions.every((t) => t.direction === "incoming" && t.currency === "EUR" && t.structuredReference === "RF18539007547034")).toBe(true);
  });

  it("turns EndToEndId NOTPROVIDED into no id and keeps the direction of a reversal's money", () => {
    const s = parseStatement(
      bytes(
        doc(
          `<Ntry><Amt Ccy="EUR">50.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><RvslInd>true</RvslInd><Sts>BOOK</Sts><BookgDt><DtTm>2024-02-10T09:00:00</DtTm></BookgDt>
          <NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs><RltdPties><Dbtr><Nm>Payer Ltd</Nm></Dbtr><Cdtr><Nm>Us</Nm></Cdtr></RltdPties></TxDtls></NtryDtls></Ntry>`,
          "02",
        ),
      ),
    );
    // A returned credit: money goes out, the other party is still the original payer.
    expect(s.transactions[0]).toMatchObject({ direction: "outgoing", endToEndId: "", counterpartyName: "Payer Ltd", bookedOn: "2024-02-10" });
  });

  it("reads every camt.053 version .001.02 to .001.13 and namespace-prefixed elements", () => {
    const entry = `<Ntry><Amt Ccy="EUR">12.34</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-02-05</Dt></BookgDt></Ntry>`;
    for (let v = 2; v <= 13; v++) {
      const version = String(v).padStart(2, "0");
      const s = parseStatement(bytes(doc(entry, version)));
      expect(s.format, version).toBe("camt.053");
      expect(
        s.transactions.map((t) => [t.direction, t.amount, t.currency, t.bookedOn]),
        version,
      ).toEqual([["incoming", "12.34", "EUR", "2024-02-05"]]);
    }
    const prefixed = doc(entry)
      .replace('<Document xmlns="', '<c:Document xmlns:c="')
      .replace(/<(\/?)(?!\?|c:Document)([A-Za-z])/g, "<$1c:$2")
      .replace("</Document>", "</c:Document>");
    expect(prefixed).toContain("<c:Ntry>");
    expect(parseStatement(bytes(prefixed)).transactions).toHaveLength(1);
  });

  it("reads a message without the Document wrapper", () => {
    const xml = doc(`<Ntry><Amt Ccy="EUR">2.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-02-03</Dt></BookgDt></Ntry>`)
      .replace(/<Document[^>]*>/, "")
      .replace("</Document>", "");
    expect(parseStatement(bytes(xml)).transactions.map((t) => [t.direction, t.amount, t.bookedOn])).toEqual([["outgoing", "2.50", "2024-02-03"]]);
  });

  it("refuses a DOCTYPE / ENTITY without expanding anything", () => {
    const evil = `<?xml version="1.0"?>
<!DOCTYPE Document [<!ENTITY lol "SECRET-EXPANSION">]>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Ntry><Amt Ccy="EUR">1</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>
<NtryDtls><TxDtls><RmtInf><Ustrd>&lol;</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry></Stmt></BkToCstmrStmt></Document>`;
    let err: unknown;
    try {
      parseStatement(bytes(evil));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StatementError);
    expect((err as StatementError).kind).toBe("unreadable");
    expect((err as StatementError).message).toMatch(/line 2: <!DOCTYPE> is not allowed/);
    expect((err as StatementError).message).not.toContain("SECRET-EXPANSION");
    // An entity reference without a declaration stays text; nothing is expanded.
    const undeclared = parseStatement(
      bytes(
        doc(
          `<Ntry><Amt Ccy="EUR">1</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><NtryDtls><TxDtls><RmtInf><Ustrd>a &lol; b</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
        ),
      ),
    );
    expect(undeclared.transactions[0].unstructured).toBe("a &lol; b");
  });

  it("names the line of malformed XML and the element of a bad value", () => {
    expect(() => parseStatement(bytes(doc(`<Ntry><Amt Ccy="EUR">1</Amt></Ntry`)))).toThrow(/line \d+, column \d+: the XML is malformed/);
    expect(() => parseStatement(bytes(doc(`<Ntry><Amt Ccy="EUR">1,5</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts></Ntry>`)))).toThrow(
      "BkToCstmrStmt/Stmt[1]/Ntry[1]/Amt: missing or not a decimal amount",
    );
    expect(() =>
      parseStatement(bytes(doc(`<Ntry><Amt Ccy="EUR">1</Amt><CdtDbtInd>X</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-01-01</Dt></BookgDt></Ntry>`))),
    ).toThrow(/Ntry\[1\]\/CdtDbtInd: expected CRDT or DBIT/);
  });

  it("a message with statements of two accounts marks the transactions of the second", () => {
    const entry = `<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-02-01</Dt></BookgDt></Ntry>`;
    const xml = doc(entry).replace("</Stmt>", `</Stmt><Stmt><Id>S2</Id><Acct><Id><Othr><Id>ACC-2</Id></Othr></Id><Ccy>EUR</Ccy></Acct>${entry}</Stmt>`);
    const s = parseStatement(bytes(xml));
    expect(s.account.iban).toBe("DE89370400440532013000");
    expect(s.transactions.map((t) => t.account)).toEqual([undefined, { iban: "", identifier: "ACC-2", currency: "EUR" }]);
  });

  it("refuses more than 20,000 transactions", () => {
    const one = `<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-02-01</Dt></BookgDt></Ntry>`;
    try {
      parseStatement(bytes(doc(one.repeat(20_001))));
      expect.unreachable();
    } catch (e) {
      expect((e as StatementError).kind).toBe("too_many");
    }
  });
});
