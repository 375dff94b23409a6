import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { currencyDigits, decimalInputToMinor, formatDate, formatMinor, minorToDecimalString } from "@/lib/format/money";

describe("money formatting without floats", () => {
  it("knows each currency's minor-unit digits", () => {
    expect(["CAD", "USD", "EUR", "GBP", "JPY", "AUD", "CHF"].map(currencyDigits)).toEqual([2, 2, 2, 2, 0, 2, 2]);
  });

  it("builds the decimal string from minor units", () => {
    expect(minorToDecimalString("125000", 2)).toBe("1250.00");
    expect(minorToDecimalString("5", 2)).toBe("0.05");
    expect(minorToDecimalString("0", 2)).toBe("0.00");
    expect(minorToDecimalString("-125", 2)).toBe("-1.25");
    expect(minorToDecimalString("007", 0)).toBe("7");
    expect(minorToDecimalString("9223372036854775807", 2)).toBe("92233720368547758.07");
    expect(() => minorToDecimalString("12.5", 2)).toThrow();
  });

  it("formats for the locale, exactly, even beyond 2^53", () => {
    expect(formatMinor("125000", "EUR", "de-DE")).toBe("1.250,00\u00a0€");
    expect(formatMinor("125000", "USD", "en-US")).toBe("$1,250.00");
    expect(formatMinor("125000", "JPY", "ja-JP")).toBe("￥125,000");
    expect(formatMinor("0", "GBP", "en-GB")).toBe("£0.00");
    expect(formatMinor("9223372036854775807", "EUR", "en-US")).toBe("€92,233,720,368,547,758.07");
    expect(formatMinor("9007199254740993", "USD", "en-US")).toBe("$90,071,992,547,409.93"); // 2^53 + 1 cents
    expect(formatMinor("100", "CHF", "not a locale!")).toMatch(/1\.00/); // a bad locale falls back
  });

  it("round-trips every amount: digits of the formatted string = digits of the input", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 9223372036854775807n }), fc.constantFrom("EUR", "USD", "JPY", "GBP"), (n, cur) => {
        const s = formatMinor(n.toString(), cur, "en-US");
        expect(BigInt(s.replace(/\D/g, "") || "0")).toBe(n);
      }),
    );
  });

  it("parses what a person types into minor units, refusing what it would have to guess", () => {
    expect(decimalInputToMinor("1250", "EUR")).toBe("125000");
    expect(decimalInputToMinor("1250.5", "EUR")).toBe("125050");
    expect(decimalInputToMinor("1250,50", "EUR")).toBe("125050");
    expect(decimalInputToMinor(" 0.01 ", "USD")).toBe("1");
    expect(decimalInputToMinor("1250", "JPY")).toBe("1250");
    for (const bad of ["", "0", "0.00", "-5", "1,250.00", "12.345", "1e3", "abc", "12.5"]) {
      expect(decimalInputToMinor(bad, bad === "12.5" ? "JPY" : "EUR"), bad).toBeNull();
    }
  });

  it("formats calendar dates without shifting a day", () => {
    expect(formatDate("2026-12-31", "en-US")).toBe("December 31, 2026");
    expect(formatDate("2026-01-01", "de-DE")).toBe("1. Januar 2026");
    expect(formatDate("", "en-US")).toBe("");
  });
});
