import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseStatement } from "./parse-statement";
import type { ParsedTransaction } from "./types";
import { errorOf } from "./error-of";

const DIR = path.resolve(import.meta.dirname, "../../test/fixtures/bank/mt940");
const file = (name: string) => new Uint8Array(readFileSync(path.join(DIR, name)));
const parse = (name: string) => parseStatement(file(name));
const bytes = (s: string) => new TextEncoder().encode(s);
const row = (t: ParsedTransaction) => [t.direction === "incoming" ? "C" : "D", t.amount, t.currency, t.bookedOn, t.counterpartyName, t.unstructured];

// Verdicts on the files of wolph/mt940 (BSD-3-Clause) that do not import:
// - sepa_snippet_broken.sta: malformed on purpose (a :25: tag where the :86: of a :61: belongs).
// - empty_entry_date.sta, cmxl/statement_line.sta, cmxl/statement_details.sta: a lone :61: line
//   (with its :86:) cut out of a statement for a unit test of the tag parser: no :60F: balance
//   and no :25: currency, so the transaction has no currency and cannot become a payment.
const REFUSED: Record<string, RegExp> = {
  "betterplace/sepa_snippet_broken.sta": /^line 6: :25: \(account identification\) comes after a :61: statement line/,
  "betterplace/empty_entry_date.sta": /^line 1: :61: transaction without a currency/,
  "cmxl/statement_line.sta": /^line 1: :61: transaction without a currency/,
  "cmxl/statement_details.sta": /^line 1: :61: transaction without a currency/,
};

const all = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(path.join(d, f)).isDirectory() ? all(path.join(d, f)) : [path.join(d, f)]));
const fixtures = all(DIR)
  .filter((f) => f.endsWith(".sta"))
  .map((f) => path.relative(DIR, f));

describe("MT940 fixtures (wolph/mt940 test data, BSD-3-Clause)", () => {
  for (const name of fixtures) {
    if (REFUSED[name]) {
      it(`${name} is refused as unreadable, naming the line`, () => {
        const e = errorOf(() => parse(name));
        expect(e.kind).toBe("unreadable");
        expect(e.message).toMatch(REFUSED[name]);
      });
      continue;
    }
    it(`${name}: one transaction per :61: line, amounts and marks as written`, () => {
      const text = readFileSync(path.join(DIR, name), "latin1");
      // Independent reading of every :61: line: mark and amount.
      const lines = [...text.matchAll(/^:61:\d{6}(?:\d{4})?(R?[CD])[A-Z]?(\d[\d,]*)/gm)];
      const s = parse(name);
      expect(s.format).toBe("mt940");
      expect(s.transactions).toHaveLength(lines.length);
      s.transactions.forEach((t, i) => {
        const [, mark, amount] = lines[i];
        expect(t.direction).toBe(mark === "C" || mark === "RD" ? "incoming" : "outgoing");
        const [int, frac] = amount.split(",");
        expect(t.amount).toBe(`${int.replace(/^0+(?=\d)/, "")}${frac ? `.${frac}` : ""}`);
        expect(t.index).toBe(i);
        expect(t.bookedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      });
    });
  }

  it("sepa_mt9401.sta: 97 transactions over several accounts", () => {
    const s = parse("betterplace/sepa_mt9401.sta");
    expect(s.transactions).toHaveLength(97);
    expect(s.account).toEqual({ iban: "", identifier: "50880050/0194774600888", currency: "EUR" });
    expect(s.transactions[0].account).toBeUndefined();
    expect(s.transactions.at(-1)?.account?.identifier).toMatch(/^50880050\//);
    expect(new Set(s.transactions.map((t) => t.account?.identifier ?? s.account.identifier)).size).toBeGreaterThan(5);
  });

  it("sepa_snippet.sta: German ?20..?29 with SVWZ+ / EREF+ / KREF+, names from ?32/?33, entry dates", () => {
    const s = parse("betterplace/sepa_snippet.sta");
    expect(s.period).toEqual({ from: "2007-09-03", to: "2007-09-04" });
    expect(s.transactions.map(row)).toEqual([
      ["C", "50990.05", "EUR", "2007-09-04", "KARL KAUFMANN", "Verw CTSc-01 BC-PPP TFNr 22 004"],
      ["C", "154551.93", "EUR", "2007-09-04", "Quentin Quast", "Strukturierter Verwendungszweck 30030004 DE"],
      ["C", "154551.93", "EUR", "2007-09-04", "Karl Kaufmann", "Strukturierter Verwendungszweck 50050004 DE"],
      ["D", "1500.00", "EUR", "2007-09-04", "", "KREF+TFNr 01022 MSGID CTSc-01 EBBMTLG:SEPA-Ueberweisungsauftrag Datei mit 0000001 Zahlungen"],
      ["D", "0.08", "EUR", "2007-09-04", "", "EREF+TFNR 40001 00005MTLG:Grund nicht spezifiziert Reject aus SEPA-Ueberweisungsauftrag"],
      ["C", "335.33", "EUR", "2007-09-04", "", "EREF+TFNR 44001 00001MTLG:Grund nicht spezifiziert Reject aus SEPA-Ueberweisungsauftrag"],
      ["C", "15000", "EUR", "2007-09-04", "", "EREF+TFNR 40001 00002MTLG:Grund nicht spezifiziert Reject aus SEPA-Ueberweisungsauftrag"],
      [
        "C",
        "15000.05",
        "EUR",
        "2007-09-04",
        "Richter Renate 70 Zeichen Beginn Fuellzeichen xxxxxxxx",
        "TO 13 TFNr 20001 Eingangskanal Mint Unstrukturierter Verwendungszweck 140 Zeichen Beginn Fuellzeichen xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
      ],
      ["C", "125004.88", "EUR", "2007-09-04", "Richter Renate 70 Zeichen Beginn Fuellzeichen xxxxxxxx", "TO13 TF20005 MINT"],
      ["C", "915311.55", "EUR", "2007-09-04", "", "EREF+TFNR 44001 00002MTLG:IBAN ungueltig Rueckueberweisung aus SEPA-Ueberweisungsauftrag"],
      ["D", "3572569.03", "EUR", "2007-09-04", "", "0904059001"],
    ]);
    const [first] = s.transactions;
    expect(first).toMatchObject({
      valueOn: "2007-09-07",
      endToEndId: "EndToEndId TFNR 22 004 00001",
      accountServicerReference: "0724710333343453",
      counterpartyAccount: "DE14508800500194785000",
      bankTransactionCode: "NTRF",
    });
    expect(s.transactions[4].endToEndId).toBe("TFNR 40001 00005");
    expect(s.transactions[10].accountServicerReference).toBe(""); // NONREF
  });

  it("cmxl/statement_details.sta inside a statement: EREF+, MREF+, CRED+, SVWZ+ and ?31/?32", () => {
    const s = parseStatement(
      bytes(`:20:X\n:25:DE89370400440532013000\n:60F:C140829EUR0,\n${readFileSync(path.join(DIR, "cmxl/statement_details.sta"), "utf8")}`),
    );
    expect(s.account.iban).toBe("DE89370400440532013000");
    expect(s.transactions[0]).toMatchObject({
      direction: "outgoing",
      amount: "1.62",
      currency: "EUR",
      bookedOn: "2014-09-02",
      valueOn: "2014-09-01",
      counterpartyName: "Peter Pan",
      counterpartyAccount: "HUkkbbbsssskcccccccccccccccx",
      unstructured: "FOO TRX-0A4A47C3-F846-4729-8A1B-5DF620F",
      endToEndId: "TRX-0A4A47C3-F846-4729-8A1B-5DF620F",
      accountServicerReference: "025498557/000001",
    });
  });

  it("with_binary_character.sta: UTF-8 umlauts, old German ?20 lines joined with spaces, a value date before the entry date", () => {
    const s = parse("betterplace/with_binary_character.sta");
    expect(s.transactions.map(row)).toEqual([
      ["C", "27.00", "EUR", "2010-03-19", "PAYPAL", "QQW53T2245ZGY46J ABBUCHUNG VOM PAYPAL-KONTO 100318P3TX1433EV"],
      ["C", "13068.30", "EUR", "2010-03-19", "WIRECARD BANK AG", "BETTERPLACE WDB E 08.03.10-14.03.10"],
      ["D", "193282.05", "EUR", "2010-03-19", "", "Belegloser Zahlungsauftrag Erstellungsdatum:19.03.2010 Anzahl Posten : 94 Anw-Nr.: 69725563000"],
      ["C", "1120.00", "EUR", "2010-03-19", "", "Belegloser Zahlungsauftrag Überweisung:19.03.2010 Anzahl Posten :7 Anw-Nr.: 69725663086"],
    ]);
    expect(s.transactions[3].valueOn).toBe("2010-03-22");
  });

  it("cmxl/mt940.sta: three statements (DEM, EUR, PLN), 61 without entry date, supplementary lines, RC/RD marks", () => {
    const s = parse("cmxl/mt940.sta");
    expect(s.transactions).toHaveLength(16);
    expect(s.transactions.slice(0, 2).map(row)).toEqual([
      ["D", "6800", "DEM", "2013-10-17", "", "999PN5477SCHECK-NR. 0000016703074"],
      ["D", "620.3", "DEM", "2013-10-17", "", "999PN0911DAUERAUFTR.NR. 14"],
    ]);
    expect(s.transactions[11]).toMatchObject({
      direction: "outgoing",
      amount: "800",
      currency: "EUR",
      bookedOn: "2002-11-02",
      valueOn: "2002-11-01",
      counterpartyName: "MUELLER",
      unstructured: "Miete November",
    });
    expect(s.transactions[13]).toMatchObject({
      direction: "incoming",
      amount: "20000.00",
      currency: "PLN",
      counterpartyAccount: "PL08106000760000777777777777",
    });
    expect(s.transactions[15]).toMatchObject({ amount: "40.00", currency: "PLN", unstructured: "Odsetki od lokaty nr 101000022086" });
  });

  it("reversal marks: RC is money going out", () => {
    const s = parse("betterplace/sepa_mt9401.sta");
    const text = readFileSync(path.join(DIR, "betterplace/sepa_mt9401.sta"), "latin1");
    expect(text).toContain(":61:0709040904RCR204,88NRTINONREF");
    expect(s.transactions.find((t) => t.amount === "204.88")?.direction).toBe("outgoing");
  });

  it("Dutch banks: /EREF/ /BENM//NAME/ /REMI/ (Rabobank), multiple :86: (old Rabobank), > subfields (Triodos), preambles (ABN AMRO, ING)", () => {
    expect(parse("jejik/rabobank-iban.sta").transactions.map((t) => [t.amount, t.bookedOn, t.counterpartyName, t.unstructured, t.endToEndId])).toEqual([
      ["25.00", "2013-01-01", "CONTRA ACCOUNT HOLDER", "", "01-01-2013 12:00 0030000987654321"],
      ["10.00", "2013-01-02", "JOHN DOE", "Reference 201301234", ""],
      ["25.00", "2013-01-08", "CONTRA ACCOUNT HOLDER", "", "08-01-2013 12:00 0030000987654321"],
      ["10.00", "2013-01-09", "JOHN DOE", "Reference 201301234", ""],
    ]);
    expect(parse("jejik/rabobank-iban.sta").account.iban).toBe("NL71RABO0123456789");
    const rabo = parse("jejik/rabobank.sta");
    expect(rabo.account).toEqual({ iban: "", identifier: "1291.99.348", currency: "EUR" });
    expect(rabo.transactions.map(row)[0]).toEqual([
      "D",
      "1213.28",
      "EUR",
      "2011-05-27",
      "W.P. Jansen",
      "Terugboeking NIET AKKOORD MET AFSCHRIJVING KOSTEN KINDEROPVANG JUNI 20095731",
    ]);
    expect(parse("jejik/triodos.sta").transactions.map(row)).toEqual([
      ["D", "15.70", "EUR", "2011-01-01", "", "ALGEMENE TUSSENREKENING KOSTEN VAN 01-10-2010 TOT EN MET 31-12-2010"],
      ["D", "700.00", "EUR", "2011-01-25", "", "HUUR KANTOOR - FEB 2010"],
    ]);
    const abn = parse("jejik/abnamro.sta");
    expect(abn.transactions).toHaveLength(10);
    expect(abn.period).toEqual({ from: "2011-05-22", to: "2011-05-24" });
    expect(abn.transactions[1]).toMatchObject({
      amount: "11.59",
      bookedOn: "2011-05-23",
      valueOn: "2011-05-21",
      unstructured: "BEA NR:XXX1234 21.05.11/12.54 DIRCKIII FIL2500 KATWIJK,PAS999",
    });
    const ing = parse("jejik/ing.sta");
    // The :86: after :62F: is statement information (totals), not part of the last transaction.
    expect(ing.transactions.at(-1)?.unstructured).toBe("0111111111 Hr S Marechal ROSMALEN Hr S Marechal ROSMALEN Betaling transactiedatum: 22-07-2010");
    expect(parse("jejik/knab.sta").transactions[1]).toMatchObject({
      amount: "7260",
      unstructured: "FACTUUR 201403110, 201403113 REK: NL65INGB0123456789/NAAM: PICQER",
      accountServicerReference: "B4G29PGCVO7Q06US",
    });
    expect(parse("jejik/sns.sta").transactions.map((t) => t.unstructured)).toEqual([
      "0987654321 marechal s dit is een test",
      "0987654321 marechal s dit is test 2",
    ]);
    expect(parse("jejik/postfinance.sta").transactions.map((t) => [t.currency, t.amount])).toEqual([
      ["CHF", "79.7"],
      ["CHF", "149.5"],
      ["CHF", "79.9"],
      ["CHF", "10.1"],
    ]);
  });

  it("tag fragments without transactions read as empty statements", () => {
    expect(parse("betterplace/currency_in_25.sta").account).toEqual({ iban: "", identifier: "51210600/9223382012", currency: "EUR" });
    expect(parse("cmxl/account_identification_iban.sta").account.iban).toBe("PL25106000760000888888888888");
    expect(parse("betterplace/amount_formats.sta").transactions).toEqual([]);
    expect(parse("betterplace/missing_crlf_at_end.sta").period.to).toBe("2010-03-23");
  });
});

describe("generated MT940", () => {
  const stmt = (body: string) =>
    `{1:F01BANKDEFFAXXX0000000000}{2:O940}{4:\r\n:20:STMT1\r\n:25:DE89370400440532013000\r\n:28C:1/1\r\n:60F:C231229EUR100,00\r\n${body}:62F:C240102EUR0,\r\n-}`;

  it("rolls the entry date's year over at the turn of the year, reads Dutch /REMI/USTD// and /ORDP//NAME/, Latin-1 bytes", () => {
    const text = stmt(
      ":61:2401021231C10,5NTRFNONREF//B1\r\n:86:/EREF/E2E-1/ORDP//NAME/J\xe9r\xf4me M\xfcller/ADDR/Paris/REMI/USTD//Rechnung RE-1 \xe4/\r\n" +
        ":61:2312290102D3,NTRFNONREF//B2\r\n:86:/BENM//NAME/Shop/IBAN/NL91ABNA0417164300/REMI/STRD/CUR/RF18539007547034/\r\n",
    );
    const latin1 = Uint8Array.from([...text].map((c) => c.charCodeAt(0)));
    const s = parseStatement(latin1);
    expect(s.account).toEqual({ iban: "DE89370400440532013000", identifier: "", currency: "EUR" });
    expect(
      s.transactions.map((t) => [t.bookedOn, t.valueOn, t.counterpartyName, t.counterpartyAccount, t.structuredReference, t.unstructured, t.endToEndId]),
    ).toEqual([
      ["2023-12-31", "2024-01-02", "Jérôme Müller", "", "", "Rechnung RE-1 ä", "E2E-1"],
      ["2024-01-02", "2023-12-29", "Shop", "NL91ABNA0417164300", "RF18539007547034", "", ""],
    ]);
  });

  it("ignores :NS: lines instead of appending them to the :86: before", () => {
    const s = parseStatement(bytes(stmt(":61:2401020102C1,NTRFNONREF\r\n:86:166?00GUTSCHRIFT?20SVWZ+Rechnung 12\r\n:NS:01Kontostand\r\n")));
    expect(s.transactions[0].unstructured).toBe("Rechnung 12");
  });

  it("names the line of a bad :61: and a bad balance", () => {
    expect(errorOf(() => parseStatement(bytes(stmt(":61:2401XX\r\n")))).message).toMatch(/^line 6: :61: expected a statement line/);
    expect(errorOf(() => parseStatement(bytes(":20:X\n:25:1\n:60F:C2401EUR1,\n"))).message).toMatch(/^line 3: :60F: expected a balance/);
    expect(errorOf(() => parseStatement(bytes(stmt(":61:2402301231C1,NTRF\r\n")))).message).toMatch(/^line 6: :61: "240230" is not a valid value date/);
  });

  it("refuses more than 20,000 transactions", () => {
    const e = errorOf(() => parseStatement(bytes(stmt(":61:2401020102C1,NTRFNONREF\r\n:86:x\r\n".repeat(20_001)))));
    expect(e.kind).toBe("too_many");
  });
});
