import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { depthOf } from "@/lib/einvoice/xml";
import { formatMinor } from "@/lib/invoices/delivery-draft";
import { tokenize } from "@/lib/reconciliation/text";
import { trimChar, trimEndChar } from "@/lib/strings";
import { readCsv } from "./parse-csv";
import { parseMt940 } from "./parse-mt940";
import { parseHumanAmount, plainDecimal } from "./text";

// The rewrites of issue 33's quadratic patterns read what the patterns read, and the inputs
// that made them quadratic now get their answer (the speed itself is in
// scripts/bench/hostile-uploads.ts; test/redos.test.ts checks every pattern).

// The CSV reader as it was (character by character), the reference for the slicing one.
function referenceCsv(text: string, delimiter: string) {
  const rows: { cells: string[]; line: number }[] = [];
  let cells: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let fieldStart = true;
  const endRow = () => {
    cells.push(field);
    if (!(cells.length === 1 && cells[0].trim() === "")) rows.push({ cells, line: rowLine });
    cells = [];
    field = "";
    fieldStart = true;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === "\n") line++;
        else if (c === "\r" && text[i + 1] !== "\n") line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && fieldStart) {
      quoted = true;
      fieldStart = false;
    } else if (c === delimiter) {
      cells.push(field);
      field = "";
      fieldStart = true;
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRow();
      line++;
      rowLine = line;
    } else {
      field += c;
      fieldStart = false;
    }
  }
  if (field !== "" || cells.length > 0) endRow();
  return rows;
}

describe("linear rewrites", () => {
  it("trim characters as /^x+|x+$/ did", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0/a-]{0,12}$/), fc.constantFrom("0", "/", "-"), (s, ch) => {
        const esc = ch === "/" ? "\\/" : ch === "-" ? "\\-" : ch;
        expect(trimEndChar(s, ch)).toBe(s.replace(new RegExp(`${esc}+$`), ""));
        expect(trimChar(s, ch)).toBe(s.replace(new RegExp(`^${esc}+|${esc}+$`, "g"), ""));
      }),
    );
  });

  it("reads decimals as before, and refuses over-long amounts", () => {
    expect(plainDecimal("0001234,50", ",")).toBe("1234.50");
    expect(plainDecimal(",5", ",")).toBe("0.5");
    expect(plainDecimal("12.", ".")).toBe("12");
    expect(plainDecimal(".", ".")).toBeNull();
    expect(plainDecimal("1.2.3", ".")).toBeNull();
    expect(plainDecimal(`${"0".repeat(200_000)}\u0000`, ".")).toBeNull();
    expect(parseHumanAmount("1.234.567,89 EUR", ",")).toEqual({ value: "1234567.89", negative: false });
    expect(parseHumanAmount("(1,234.50)", ".")).toEqual({ value: "1234.50", negative: true });
    expect(parseHumanAmount("1.23.4,5", ",")).toBeNull();
    expect(parseHumanAmount(`1,${"0".repeat(40_000)}1`, ",")).toBeNull();
  });

  it("reads CSV exactly as the character-by-character reader did", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "b", ";", ",", '"', "\n", "\r", " "), { maxLength: 60 }), fc.constantFrom(";", ","), (chars, d) => {
        const text = chars.join("");
        expect(readCsv(text, d)).toEqual(referenceCsv(text, d));
      }),
      { numRuns: 2000 },
    );
  });

  it("tokenizes remittance text as the pattern did, and groups thousands as it did", () => {
    const TOKEN = /[\p{L}\p{N}]+(?:(?:[-/_]|(?<=\p{N})\.(?=\p{N}))[\p{L}\p{N}]+)*/gu;
    const reference = (t: string) => Array.from(t.normalize("NFC").matchAll(TOKEN), (m) => m[0].toUpperCase());
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "B", "1", "9", ".", "-", "/", "_", " ", ",", "é", "e\u0301", "😀", "٣"), { maxLength: 40 }), (chars) => {
        const text = chars.join("");
        expect(tokenize(text)).toEqual(reference(text));
      }),
      { numRuns: 3000 },
    );
    expect(tokenize(`${"00.0".repeat(30_000)}\u0000`)).toHaveLength(1);
    for (const [minor, text] of [
      [0n, "0.00"],
      [5n, "0.05"],
      [100000n, "1,000.00"],
      [123456789n, "1,234,567.89"],
    ] as const)
      expect(formatMinor(minor, "EUR")).toBe(text);
    expect(formatMinor(1234567n, "JPY")).toBe("1,234,567");
  });

  it("reads an MT940 :86: of 200,000 slashes", () => {
    const s = parseMt940(
      Buffer.from(
        `:20:X\n:25:NL91ABNA0417164300\n:60F:C070903EUR0,00\n:61:0709070904C50,05NTRFNONREF\n:86:/EREF/a${"/".repeat(200_000)}b\n:62F:C070903EUR0,00\n-\n`,
      ),
    );
    expect(s.transactions).toHaveLength(1);
  });

  it("counts XML depth by a scan, refusing unclosed tags and a '<' inside a tag", () => {
    expect(depthOf("<a><!-- <b> --><![CDATA[<c>]]><?pi <d>?><e/><f>x</f></a>")).toBe(2);
    expect(() => depthOf("<a".repeat(200_000))).toThrow(/not well-formed/);
    expect(() => depthOf(`<a>${"<b <c>".repeat(10)}`)).toThrow(/not closed before the next "<"/);
    expect(() => depthOf(`<a ${"x".repeat(20_000)}>`)).toThrow(/longer than/);
    expect(depthOf(`${"<a>".repeat(100_000)}`)).toBe(65); // counted up to one past the bound
  });
});
