import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ZCsvMapping } from "./csv-mapping";
import { parseCsv } from "./parse-csv";
import { parseStatement } from "./parse-statement";
import { parseHumanAmount, plainDecimal } from "./text";
import type { ParsedTransaction } from "./types";
import { errorOf } from "./error-of";

const utf8 = (s: string) => new TextEncoder().encode(s);
const withBom = (s: string) => new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(s)]);
// windows-1252 / Latin-1 bytes: every character below U+0100 as one byte.
const latin1 = (s: string) =>
  Uint8Array.from(
    [...s].map((c) => {
      const code = c.charCodeAt(0);
      if (code > 0xff) throw new Error(`not Latin-1: ${c}`);
      return code;
    }),
  );
const pick = (t: ParsedTransaction) => [t.direction, t.amount, t.currency, t.bookedOn, t.counterpartyName, t.unstructured];

describe("CSV exports", () => {
  it("German export: Latin-1, 4 preamble lines, semicolons, decimal comma with thousands dots, quoted newline, header guess", () => {
    const csv = [
      '"Kontonummer:";"DE89 3704 0044 0532 0130 00 / Girokonto";',
      '"Von:";"01.03.2024";',
      '"Bis:";"31.03.2024";',
      '"Kontostand vom 31.03.2024:";"1.234,56 EUR";',
      "",
      '"Buchungstag";"Wertstellung";"Buchungstext";"Auftraggeber / Begünstigter";"Verwendungszweck";"Kontonummer";"BLZ";"Betrag (EUR)";"Gläubiger-ID";',
      '"04.03.2024";"05.03.2024";"Gutschrift";"Müller & Söhne";"RE 2024-17; danke";"DE02120300000000202051";"";"1.234,50";"";',
      '"05.03.2024";"05.03.2024";"Lastschrift";"Café Zoé";"Miete\r\nMärz";"";"";"-12.345,67";"";',
      '"06.03.2024";"06.03.2024";"Gutschrift";"Jérôme";"Rechnung 7";"";"";"0,05";"";',
    ].join("\r\n");
    const s = parseStatement(latin1(csv));
    expect(s.format).toBe("csv");
    expect(s.account).toEqual({ iban: "DE89370400440532013000", identifier: "", currency: "EUR" });
    expect(s.period).toEqual({ from: "2024-03-04", to: "2024-03-06" });
    expect(s.transactions.map(pick)).toEqual([
      ["incoming", "1234.50", "EUR", "2024-03-04", "Müller & Söhne", "RE 2024-17; danke"],
      ["outgoing", "12345.67", "EUR", "2024-03-05", "Café Zoé", "Miete März"],
      ["incoming", "0.05", "EUR", "2024-03-06", "Jérôme", "Rechnung 7"],
    ]);
    expect(s.transactions[0]).toMatchObject({ valueOn: "2024-03-05", counterpartyAccount: "DE02120300000000202051" });
  });

  it("Sparkasse CSV-CAMT export: two-digit years, Beguenstigter/Zahlungspflichtiger, Kontonummer/IBAN, Waehrung", () => {
    const csv =
      '"Auftragskonto";"Buchungstag";"Valutadatum";"Buchungstext";"Verwendungszweck";"Glaeubiger ID";"Mandatsreferenz";"Kundenreferenz (End-to-End)";"Sammlerreferenz";"Lastschrift Ursprungsbetrag";"Auslagenersatz Ruecklastschrift";"Beguenstigter/Zahlungspflichtiger";"Kontonummer/IBAN";"BIC (SWIFT-Code)";"Betrag";"Waehrung";"Info"\n' +
      '"DE89370400440532013000";"28.02.24";"28.02.24";"GUTSCHR. UEBERWEISUNG";"RF18539007547034 Rechnung 4711";"";"";"NOTPROVIDED";"";"";"";"Schmidt KG";"DE02120300000000202051";"BYLADEM1001";"2.500,00";"EUR";"Umsatz gebucht"\n';
    const s = parseStatement(latin1(csv));
    expect(s.transactions.map(pick)).toEqual([["incoming", "2500.00", "EUR", "2024-02-28", "Schmidt KG", "RF18539007547034 Rechnung 4711"]]);
    expect(s.transactions[0].counterpartyAccount).toBe("DE02120300000000202051");
  });

  it("UTF-8 with BOM, commas, quoted fields with embedded commas and quotes, English headers, currency column", () => {
    const csv = 'Date,Description,Payer,Amount,Currency\n2024-01-15,"Invoice INV-12, part 1 ""final""",ACME Ltd,"1,250.00",usd\n2024-01-16,Fee,,-3.5,USD\n';
    const s = parseStatement(withBom(csv));
    expect(s.transactions.map(pick)).toEqual([
      ["incoming", "1250.00", "USD", "2024-01-15", "ACME Ltd", 'Invoice INV-12, part 1 "final"'],
      ["outgoing", "3.5", "USD", "2024-01-16", "", "Fee"],
    ]);
  });

  it("drops control characters (NUL) as MT940 does, also past the 64 KiB detectFormat sees and in UTF-16", () => {
    const rows = "Date,Payer,Amount,Currency,Text\n2024-01-15,Nul\u0000 Payer\u0000,10.00,EUR,Inv\u0000oice\u0007 1\n";
    const expected = [["incoming", "10.00", "EUR", "2024-01-15", "Nul Payer", "Invoice 1"]];
    expect(parseStatement(utf8(rows), { format: "csv" }).transactions.map(pick)).toEqual(expected);
    const padded = `Date,Payer,Amount,Currency,Text\n${"2024-01-14,Filler,1.00,EUR,Pad\n".repeat(2500)}2024-01-15,Nul\u0000 Payer\u0000,10.00,EUR,Inv\u0000oice\u0007 1\n`;
    expect(utf8(padded).length).toBeGreaterThan(64 * 1024);
    expect(parseStatement(utf8(padded)).transactions.map(pick).at(-1)).toEqual(expected[0]);
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Uint16Array.from([...rows].map((c) => c.charCodeAt(0))).buffer)]);
    expect(parseStatement(utf16).transactions.map(pick)).toEqual(expected);
  });

  it("debit/credit columns, tab delimiter, French headers", () => {
    const csv = "Date opération\tLibellé\tDébit\tCrédit\tDevise\n02/01/2024\tVIR SEPA Dupont\t\t1 200,00\tEUR\n03/01/2024\tPRLV EDF\t85,20\t\tEUR\n";
    const s = parseStatement(utf8(csv));
    expect(s.transactions.map(pick)).toEqual([
      ["incoming", "1200.00", "EUR", "2024-01-02", "", "VIR SEPA Dupont"],
      ["outgoing", "85.20", "EUR", "2024-01-03", "", "PRLV EDF"],
    ]);
  });

  it("Dutch ING export: Af Bij indicator with an unsigned Bedrag", () => {
    const csv =
      '"Datum","Naam / Omschrijving","Rekening","Tegenrekening","Code","Af Bij","Bedrag (EUR)","Mutatiesoort","Mededelingen"\n' +
      '"20240105","Jansen BV","NL91ABNA0417164300","NL20INGB0001234567","OV","Bij","150,00","Overschrijving","Factuur 2024-001"\n' +
      '"20240106","Albert Heijn","NL91ABNA0417164300","","BA","Af","23,45","Betaalautomaat","Pasvolgnr 001"\n';
    const s = parseStatement(utf8(csv));
    expect(s.transactions.map(pick)).toEqual([
      ["incoming", "150.00", "EUR", "2024-01-05", "Jansen BV", "Factuur 2024-001"],
      ["outgoing", "23.45", "EUR", "2024-01-06", "Albert Heijn", "Pasvolgnr 001"],
    ]);
  });

  it("a mapping with column indexes and no header row", () => {
    const mapping = ZCsvMapping.parse({
      date: 0,
      debit: 2,
      credit: 3,
      counterparty_name: 1,
      remittance: [4, 5],
      fixed_currency: "CHF",
      decimal_separator: ".",
      date_format: "DD.MM.YYYY",
      header_row: 0,
      account: "CH93 0076 2011 6238 5295 7",
    });
    const csv = "31.01.2024;Muster AG;;1'500.00;Rechnung;R-77\n01.02.2024;Post;12.00;;Porto;\n";
    const s = parseStatement(utf8(csv), { format: "csv", csvMapping: mapping });
    expect(s.account.iban).toBe("CH9300762011623852957");
    expect(s.transactions.map(pick)).toEqual([
      ["incoming", "1500.00", "CHF", "2024-01-31", "Muster AG", "Rechnung R-77"],
      ["outgoing", "12.00", "CHF", "2024-02-01", "Post", "Porto"],
    ]);
  });

  it("a mapping by header names finds the header below preamble lines", () => {
    const csv = "Export;;\nKonto;123;\n\nValuta;Umsatz;Info;Ref\n15.02.2024;-9,99;Abo;TX-1\n";
    const s = parseCsv(utf8(csv), ZCsvMapping.parse({ date: "Valuta", amount: "Umsatz", remittance: "Info", bank_reference: "Ref", fixed_currency: "EUR" }));
    expect(s.transactions.map((t) => [t.direction, t.amount, t.bookedOn, t.unstructured, t.accountServicerReference])).toEqual([
      ["outgoing", "9.99", "2024-02-15", "Abo", "TX-1"],
    ]);
  });

  it("takes the currency from the amount cell when there is no currency column", () => {
    const s = parseStatement(utf8("Datum;Betrag;Text\n01.02.2024;1.234,56 EUR;Miete\n02.02.2024;-2,00 CHF;Fee\n"));
    expect(s.transactions.map((t) => [t.direction, t.amount, t.currency])).toEqual([
      ["incoming", "1234.56", "EUR"],
      ["outgoing", "2.00", "CHF"],
    ]);
    expect(s.account.currency).toBe("");
  });

  it("without mapping and without recognizable headers asks for csv_mapping", () => {
    const e = errorOf(() => parseStatement(utf8("a;b;c\n1;2;3\n4;5;6\n")));
    expect(e.kind).toBe("unreadable");
    expect(e.message).toContain("could not find the date/amount columns; send csv_mapping");
  });

  it("names the line of a bad date, a bad amount and a missing currency", () => {
    expect(errorOf(() => parseStatement(utf8("Date;Amount;Currency\n2024-01-01;5;EUR\n2024-13-45;1;EUR\n"))).message).toMatch(/^line 3: date "2024-13-45"/);
    expect(errorOf(() => parseStatement(utf8("Date;Amount;Currency\n2024-01-01;5;EUR\n2024-01-02;1.2.3;EUR\n"))).message).toMatch(
      /^line 3: amount "1.2.3" is not an amount/,
    );
    expect(errorOf(() => parseStatement(utf8("Date;Amount\n2024-01-01;5\n"))).message).toMatch(/^line 2: no currency/);
    expect(errorOf(() => parseCsv(utf8("Date;Amount\n2024-01-01;5\n"), ZCsvMapping.parse({ date: "Datum", amount: "Amount" }))).message).toMatch(
      /csv_mapping.date/,
    );
  });

  it("refuses more than 20,000 rows", () => {
    const csv = `Date;Amount;Currency\n${"2024-01-01;1,00;EUR\n".repeat(20_001)}`;
    expect(errorOf(() => parseStatement(utf8(csv))).kind).toBe("too_many");
  });

  it("rejects contradictory mappings", () => {
    expect(ZCsvMapping.safeParse({ date: "D" }).success).toBe(false);
    expect(ZCsvMapping.safeParse({ date: "D", amount: "A", debit: "S" }).success).toBe(false);
    expect(ZCsvMapping.safeParse({ date: "D", amount: "A", currency: "C", fixed_currency: "EUR" }).success).toBe(false);
    expect(ZCsvMapping.safeParse({ date: "D", amount: 1, header_row: 0 }).success).toBe(false);
    expect(ZCsvMapping.safeParse({ date: 0, amount: 1, header_row: 0, fixed_currency: "EUR" }).success).toBe(true);
  });
});

// Exact value of a canonical decimal string, as a scaled BigInt pair (no floats).
const exact = (s: string) => {
  const [i, f = ""] = s.split(".");
  return { units: BigInt(i + f || "0"), scale: f.length };
};
const sameValue = (a: string, b: string) => {
  const x = exact(a);
  const y = exact(b);
  const scale = Math.max(x.scale, y.scale);
  return x.units * 10n ** BigInt(scale - x.scale) === y.units * 10n ** BigInt(scale - y.scale);
};
const group = (digits: string, sep: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, sep);

describe("amount normalization is exact", () => {
  const intPart = fc.stringMatching(/^[1-9]\d{0,17}$|^0$/);
  const frac = fc.stringMatching(/^\d{0,6}$/);

  it("CSV amounts in any notation keep their value and their digits", () => {
    fc.assert(
      fc.property(intPart, frac, fc.boolean(), fc.constantFrom(",", "."), fc.boolean(), (i, f, negative, decimal, grouped) => {
        const groupSep = decimal === "," ? "." : ",";
        const written = `${negative ? "-" : ""}${grouped ? group(i, groupSep) : i}${f ? decimal + f : ""}`;
        const parsed = parseHumanAmount(written, decimal);
        expect(parsed).not.toBeNull();
        expect(parsed?.negative).toBe(negative);
        expect(parsed?.value).toBe(f ? `${i}.${f}` : i);
        // And through a whole CSV file.
        const csv = `Datum;Betrag;Währung\n01.02.2024;"${written}";EUR\n`;
        const t = parseCsv(utf8(csv), ZCsvMapping.parse({ date: "Datum", amount: "Betrag", currency: "Währung", decimal_separator: decimal })).transactions[0];
        expect(sameValue(t.amount, parsed?.value as string)).toBe(true);
        expect(t.direction).toBe(negative ? "outgoing" : "incoming");
      }),
      { numRuns: 300 },
    );
  });

  it("MT940 amounts (decimal comma, leading zeros) keep their value", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,12}$/), frac, (i, f) => {
        const written = `${i},${f}`;
        const v = plainDecimal(written, ",") as string;
        expect(sameValue(v, `${i}${f ? `.${f}` : ""}`)).toBe(true);
        expect(v).toMatch(/^(0|[1-9]\d*)(\.\d+)?$/);
        const mt = `:20:X\n:25:DE89370400440532013000\n:60F:C240101EUR0,\n:61:2401020102D${written}NTRFNONREF\n:62F:C240102EUR0,\n`;
        const t = parseStatement(utf8(mt)).transactions[0];
        expect(t.amount).toBe(v);
      }),
      { numRuns: 300 },
    );
  });
});
