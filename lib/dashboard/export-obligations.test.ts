import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { csvCell, csvLine } from "@/lib/dashboard/export-obligations";

// Every piece a spreadsheet could take for a cell: the text split at any separator or line
// break (whatever the reader's delimiter, quotes ignored), without surrounding whitespace
// and an opening quote. None may start a formula.
const pieces = (cell: string) =>
  cell
    .split(/[,;|\t\r\n]/)
    .map((p) => p.trim().replace(/^"/, "").trim())
    .filter(Boolean);

describe("csvCell", () => {
  it("neutralises spreadsheet formulas", () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2")).toBe("'-2");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tx")).toBe('"\'\tx"');
  });
  it("neutralises formulas after leading whitespace, line breaks and any delimiter (issue 33)", () => {
    expect(csvCell("Acme;=1+1")).toBe('"Acme;\'=1+1"');
    expect(csvCell(' =HYPERLINK("http://x")')).toBe('" \'=HYPERLINK(""http://x"")"');
    expect(csvCell("\n=2+2")).toBe("\"'\n'=2+2\"");
    expect(csvCell("\r\n@x")).toBe("\"'\r\n'@x\"");
    expect(csvCell("a|  -1")).toBe('"a|  \'-1"');
    expect(csvCell("Foo - Bar")).toBe("Foo - Bar");
    expect(csvCell("2026-11-28")).toBe("2026-11-28");
    expect(csvCell("a+b@example.com")).toBe("a+b@example.com");
  });
  it("leaves no piece that starts a formula, for any text", () => {
    const chars = fc.constantFrom("=", "+", "-", "@", " ", "\t", "\r", "\n", ",", ";", "|", '"', "a", "1", "'");
    fc.assert(
      fc.property(
        fc.array(chars, { maxLength: 30 }).map((cs) => cs.join("")),
        (v) => {
          for (const p of pieces(csvCell(v))) expect("=+-@".includes(p[0])).toBe(false);
        },
      ),
      { numRuns: 3000 },
    );
  });
  it("quotes separators, quotes and line breaks, and leaves plain text alone", () => {
    expect(csvCell("Acme, Inc.")).toBe('"Acme, Inc."');
    expect(csvCell("Acme; Inc.")).toBe('"Acme; Inc."');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("1234.56")).toBe("1234.56");
    expect(csvCell("")).toBe("");
  });
  it("joins a record", () => {
    expect(csvLine(["a", "b,c", "=1"])).toBe('a,"b,c",\'=1');
  });
});
