import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { basisPointsToPercent, decimalInputToMinor, formatMinor, minorDigits, minorToDecimal, parseDecimalToMinor, parsePercentToBasisPoints } from "./format";

// Intl output contains narrow/no-break spaces in some locales: compare with them spelled out.
const nbsp = "\u00a0";
const nnbsp = "\u202f";

describe("minorDigits", () => {
  it("knows the service's currencies", () => {
    expect(["CAD", "USD", "EUR", "GBP", "AUD", "CHF"].map(minorDigits)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(minorDigits("JPY")).toBe(0);
  });
  it("asks Intl for others", () => {
    expect(minorDigits("KWD")).toBe(3);
  });
});

describe("formatMinor", () => {
  it("formats with the locale's symbol, grouping and decimal mark", () => {
    expect(formatMinor("123456", "EUR", { locale: "en-US" })).toBe("€1,234.56");
    expect(formatMinor("123456", "EUR", { locale: "de-DE" })).toBe(`1.234,56${nbsp}€`);
    expect(formatMinor("123456", "EUR", { locale: "fr-FR" })).toBe(`1${nnbsp}234,56${nbsp}€`);
    expect(formatMinor("123456", "USD", { locale: "en-US" })).toBe("$1,234.56");
    // the Swiss group mark differs between ICU versions (' or ’): take it from Intl itself
    expect(formatMinor("123456", "CHF", { locale: "de-CH" })).toBe(new Intl.NumberFormat("de-CH", { style: "currency", currency: "CHF" }).format(1234.56));
    expect(formatMinor("123456", "GBP", { locale: "en-GB" })).toBe("£1,234.56");
  });

  it("JPY has no minor digits", () => {
    expect(formatMinor("1500", "JPY", { locale: "en-US" })).toBe("¥1,500");
    expect(formatMinor("1500", "JPY", { locale: "ja-JP" })).toBe("￥1,500");
  });

  it("keeps every digit of amounts beyond float precision", () => {
    // 2^53 + 1 minor units: a float would print ...992 instead of ...993
    expect(formatMinor("9007199254740993", "USD", { locale: "en-US" })).toBe("$90,071,992,547,409.93");
    expect(formatMinor("9223372036854775807", "EUR", { locale: "en-US" })).toBe("€92,233,720,368,547,758.07");
    expect(formatMinor(9223372036854775807n, "JPY", { locale: "en-US" })).toBe("¥9,223,372,036,854,775,807");
  });

  it("pads small amounts and zero", () => {
    expect(formatMinor("0", "EUR", { locale: "en-US" })).toBe("€0.00");
    expect(formatMinor("5", "EUR", { locale: "en-US" })).toBe("€0.05");
    expect(formatMinor("50", "USD", { locale: "en-US" })).toBe("$0.50");
    expect(formatMinor("0", "JPY", { locale: "en-US" })).toBe("¥0");
  });

  it("formats negatives, including below one unit", () => {
    expect(formatMinor("-123456", "EUR", { locale: "en-US" })).toBe("-€1,234.56");
    expect(formatMinor("-50", "EUR", { locale: "en-US" })).toBe("-€0.50");
    expect(formatMinor("-50", "EUR", { locale: "de-DE" })).toBe(`-0,50${nbsp}€`);
    expect(formatMinor("50", "EUR", { locale: "en-US", signDisplay: "always" })).toBe("+€0.50");
  });

  it("uses the locale's digits", () => {
    expect(formatMinor("123456", "USD", { locale: "ar-EG" })).toMatch(/١٬?٢٣٤٫٥٦/);
  });

  it("supports other currency displays", () => {
    expect(formatMinor("123456", "EUR", { locale: "en-US", currencyDisplay: "code" })).toBe(`EUR${nbsp}1,234.56`);
    expect(formatMinor("100", "USD", { locale: "en-US", currencyDisplay: "name" })).toBe("1.00 US dollars");
  });

  it("refuses what is not an integer string", () => {
    expect(() => formatMinor("12.5", "EUR")).toThrow(RangeError);
    expect(() => formatMinor("1e5", "EUR")).toThrow(RangeError);
    expect(() => formatMinor("", "EUR")).toThrow(RangeError);
  });

  it("agrees with Intl on every amount Intl can represent exactly (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), fc.constantFrom("en-US", "de-DE", "fr-FR", "ja-JP", "en-IN"), (n, locale) => {
        const nf = new Intl.NumberFormat(locale, { style: "currency", currency: "EUR" });
        // n / 100 is exact enough for Intl's rounding at two digits for these magnitudes
        expect(formatMinor(String(n), "EUR", { locale })).toBe(nf.format(n / 100));
      }),
    );
  });
});

describe("minorToDecimal", () => {
  it("gives the plain decimal form", () => {
    expect(minorToDecimal("123456", "EUR")).toBe("1234.56");
    expect(minorToDecimal("5", "EUR")).toBe("0.05");
    expect(minorToDecimal("1500", "JPY")).toBe("1500");
    expect(minorToDecimal("-5", "USD")).toBe("-0.05");
  });
});

describe("parseDecimalToMinor", () => {
  const ok = (s: string, c = "EUR") => {
    const r = parseDecimalToMinor(s, c);
    if (!r.ok) throw new Error(r.message);
    return r.minor;
  };
  const err = (s: string, c = "EUR") => {
    const r = parseDecimalToMinor(s, c);
    if (r.ok) throw new Error(`accepted ${s} as ${r.minor}`);
    return r.message;
  };

  it("converts decimals to minor units without floats", () => {
    expect(ok("1250.50")).toBe("125050");
    expect(ok("1250.5")).toBe("125050");
    expect(ok("1250")).toBe("125000");
    expect(ok("0.01")).toBe("1");
    expect(ok(".5")).toBe("50");
    expect(ok("7.")).toBe("700");
    expect(ok("0.29")).toBe("29"); // 0.29 * 100 = 28.999999999999996 as a float
    expect(ok("1.005", "KWD")).toBe("1005");
    expect(ok("92233720368547758.07")).toBe("9223372036854775807");
  });

  it("accepts grouping separators", () => {
    expect(ok("1,234.56")).toBe("123456");
    expect(ok("1,234,567")).toBe("123456700");
    expect(ok(" 1 234.5 ")).toBe("123450");
    expect(ok("1'234.50")).toBe("123450");
  });

  it("JPY takes whole yen", () => {
    expect(ok("1500", "JPY")).toBe("1500");
    expect(err("1500.5", "JPY")).toMatch(/no decimal places/);
    expect(ok("1500.", "JPY")).toBe("1500");
  });

  it("refuses bad input with a message", () => {
    expect(err("")).toMatch(/Enter an amount/);
    expect(err("abc")).toMatch(/Enter a number/);
    expect(err("12.345")).toMatch(/at most 2 decimal places/);
    expect(err("12,50")).toMatch(/dot as the decimal separator/);
    expect(err("1.234,56")).toMatch(/Enter a number|dot/);
    expect(err("0")).toMatch(/greater than zero/);
    expect(err("0.00")).toMatch(/greater than zero/);
    expect(err("-5")).toMatch(/Enter a number/);
    expect(err("1e3")).toMatch(/Enter a number/);
    expect(err("92233720368547758.08")).toMatch(/too large/);
    expect(err(".")).toMatch(/Enter a number/);
  });

  it("round-trips with minorToDecimal (property)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 9223372036854775807n }), fc.constantFrom("EUR", "JPY", "USD"), (v, c) => {
        expect(ok(minorToDecimal(v, c), c)).toBe(v.toString());
      }),
    );
  });
});

describe("percent <-> basis points", () => {
  it("parses with string math", () => {
    expect(parsePercentToBasisPoints("30")).toEqual({ ok: true, basisPoints: 3000 });
    expect(parsePercentToBasisPoints("12.5")).toEqual({ ok: true, basisPoints: 1250 });
    expect(parsePercentToBasisPoints("0.01")).toEqual({ ok: true, basisPoints: 1 });
    expect(parsePercentToBasisPoints("100 %")).toEqual({ ok: true, basisPoints: 10000 });
    expect(parsePercentToBasisPoints("0.29")).toEqual({ ok: true, basisPoints: 29 });
    expect(parsePercentToBasisPoints("100.01").ok).toBe(false);
    expect(parsePercentToBasisPoints("0").ok).toBe(false);
    expect(parsePercentToBasisPoints("1.234").ok).toBe(false);
    expect(parsePercentToBasisPoints("x").ok).toBe(false);
  });
  it("formats back", () => {
    expect([3000, 1250, 1, 10000, 7005].map(basisPointsToPercent)).toEqual(["30", "12.5", "0.01", "100", "70.05"]);
  });
});

describe("the recipient page's money (exact, locale-tolerant)", () => {
  it("formats for the visitor's locale list exactly, even beyond 2^53, and falls back on a bad locale", () => {
    expect(formatMinor("125000", "EUR", { locale: ["de-DE"] })).toBe("1.250,00\u00a0€");
    expect(formatMinor("125000", "USD", { locale: ["en-US"] })).toBe("$1,250.00");
    expect(formatMinor("0", "GBP", { locale: "en-GB" })).toBe("£0.00");
    expect(formatMinor("9223372036854775807", "EUR", { locale: ["en-US"] })).toBe("€92,233,720,368,547,758.07");
    expect(formatMinor("9007199254740993", "USD", { locale: ["en-US"] })).toBe("$90,071,992,547,409.93"); // 2^53 + 1 cents
    expect(formatMinor("100", "CHF", { locale: "not a locale!" })).toMatch(/1\.00/);
  });

  it("parses what a payer types, accepting a decimal comma, refusing what it would have to guess", () => {
    expect(decimalInputToMinor("1250", "EUR")).toBe("125000");
    expect(decimalInputToMinor("1250.5", "EUR")).toBe("125050");
    expect(decimalInputToMinor("1250,50", "EUR")).toBe("125050");
    expect(decimalInputToMinor(" 0.01 ", "USD")).toBe("1");
    expect(decimalInputToMinor("1250", "JPY")).toBe("1250");
    for (const bad of ["", "0", "0.00", "-5", "1,250.00", "12.345", "1e3", "abc", "12.5", "99999999999999999999"]) {
      expect(decimalInputToMinor(bad, bad === "12.5" ? "JPY" : "EUR"), bad).toBeNull();
    }
  });
});
