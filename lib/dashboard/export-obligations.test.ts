import { describe, expect, it } from "vitest";
import { csvCell, csvLine } from "@/lib/dashboard/export-obligations";

describe("csvCell", () => {
  it("neutralises spreadsheet formulas", () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2")).toBe("'-2");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tx")).toBe("'\tx");
  });
  it("quotes separators, quotes and line breaks, and leaves plain text alone", () => {
    expect(csvCell("Acme, Inc.")).toBe('"Acme, Inc."');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("1234.56")).toBe("1234.56");
    expect(csvCell("")).toBe("");
  });
  it("joins a record", () => {
    expect(csvLine(["a", "b,c", "=1"])).toBe('a,"b,c",\'=1');
  });
});
