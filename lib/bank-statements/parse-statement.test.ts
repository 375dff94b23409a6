import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectFormat, parseStatement } from "./parse-statement";
import { errorOf } from "./error-of";

const FIXTURES = path.resolve(import.meta.dirname, "../../test/fixtures/bank");
const fixture = (p: string) => new Uint8Array(readFileSync(path.join(FIXTURES, p)));
const utf8 = (s: string) => new TextEncoder().encode(s);

describe("parseStatement format detection", () => {
  it("recognizes camt.053, camt.054, MT940 (with SWIFT or bank preambles) and CSV by content", () => {
    expect(detectFormat(fixture("camt/camt053.v8.xml"))).toBe("camt.053");
    expect(detectFormat(fixture("camt/camt053.v2.all-balance-types.xml"))).toBe("camt.053");
    expect(detectFormat(fixture("camt/camt054.v4.xml"))).toBe("camt.054");
    expect(detectFormat(fixture("mt940/jejik/abnamro.sta"))).toBe("mt940");
    expect(detectFormat(fixture("mt940/jejik/ing.sta"))).toBe("mt940");
    expect(detectFormat(fixture("mt940/jejik/rabobank.sta"))).toBe("mt940");
    expect(detectFormat(utf8("{1:F01BANKBEBBAXXX0000000000}{2:O940}{4:\n:20:X\n"))).toBe("mt940");
    expect(detectFormat(utf8("\ufeffDate;Amount\n2024-01-01;1\n"))).toBe("csv");
    const utf16 = new Uint8Array([0xff, 0xfe, ...[..."Date;Amount;Currency\r\n2024-01-02;-4.5;EUR\r\n"].flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(parseStatement(utf16).transactions.map((t) => [t.direction, t.amount, t.bookedOn])).toEqual([["outgoing", "4.5", "2024-01-02"]]);
    expect(detectFormat(utf8('<?xml version="1.0"?><p:Document xmlns:p="x"><p:BkToCstmrStmt/></p:Document>'))).toBe("camt.053");
  });

  it("refuses what is no statement as unsupported", () => {
    const cases: Array<[string, Uint8Array]> = [
      ["PDF", utf8("%PDF-1.7\n%âãÏÓ\n1 0 obj\n")],
      ["PNG", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])],
      ["ZIP/XLSX", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0])],
      ["HTML", utf8("<!DOCTYPE html><html><body>Kontoauszug</body></html>")],
      ["camt.052", utf8('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.08"><BkToCstmrAcctRpt/></Document>')],
      ["pain.001", utf8('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn/></Document>')],
      ["plain text", utf8("Dear customer,\nyour statement for March is attached to this e-mail.\nKind regards\n")],
      ["JSON", utf8('{"date": "2024-01-01", "amount": 5}')],
      ["empty", new Uint8Array()],
    ];
    for (const [what, bytes] of cases) {
      const e = errorOf(() => parseStatement(bytes));
      expect(e.kind, what).toBe("unsupported");
    }
    expect(errorOf(() => parseStatement(utf8('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.08"/>'))).message).toContain("camt.052");
  });

  it("an explicit format wins over detection, and content of another format is unreadable", () => {
    expect(parseStatement(fixture("mt940/jejik/knab.sta"), { format: "mt940" }).transactions).toHaveLength(3);
    expect(errorOf(() => parseStatement(fixture("mt940/jejik/knab.sta"), { format: "camt.053" })).kind).toBe("unreadable");
    expect(errorOf(() => parseStatement(fixture("camt/camt053.v8.xml"), { format: "camt.054" })).message).toMatch(/BkToCstmrDbtCdtNtfctn/);
  });
});
