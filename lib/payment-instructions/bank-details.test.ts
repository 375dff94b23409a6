import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compactIban, groupsOfFour, ibanProblem, isValidBic } from "./bank-details";

// Published example IBANs (ECBS / national banking associations).
const VALID = [
  "DE89 3704 0044 0532 0130 00",
  "GB82 WEST 1234 5698 7654 32",
  "FR14 2004 1010 0505 0001 3M02 606",
  "NL91 ABNA 0417 1643 00",
  "CH93 0076 2011 6238 5295 7",
  "BE68 5390 0754 7034",
  "AT61 1904 3002 3457 3201",
  "ES91 2100 0418 4502 0005 1332",
  "IT60 X054 2811 1010 0000 0123 456",
  "NO93 8601 1117 947",
  "MT84 MALT 0110 0001 2345 MTLC AST0 01S",
];

describe("IBAN", () => {
  it("accepts published examples, with or without spaces and in any case", () => {
    for (const i of VALID) {
      expect(ibanProblem(i), i).toBeNull();
      expect(ibanProblem(compactIban(i).toLowerCase())).toBeNull();
    }
  });

  it("names what is wrong", () => {
    expect(ibanProblem("DE89 3704 0044 0532 0130 01")).toBe("checksum");
    expect(ibanProblem("DE89 3704 0044 0532 0130")).toBe("length");
    expect(ibanProblem("ZZ89 3704 0044 0532 0130 00")).toBe("country");
    expect(ibanProblem("DE89-3704")).toBe("format");
    expect(ibanProblem("")).toBe("format");
  });

  it("detects every single-character substitution of a valid IBAN", () => {
    const base = compactIban(VALID[0]);
    fc.assert(
      fc.property(fc.integer({ min: 4, max: base.length - 1 }), fc.integer({ min: 0, max: 9 }), (pos, d) => {
        fc.pre(base[pos] !== String(d));
        const changed = `${base.slice(0, pos)}${d}${base.slice(pos + 1)}`;
        expect(ibanProblem(changed)).not.toBeNull();
      }),
    );
  });

  it("knows the lengths of the SEPA countries", () => {
    expect(ibanProblem("DE89 3704 0044 0532 0130 000")).toBe("length"); // DE: 22
    expect(ibanProblem("FR14 2004 1010 0505 0001 3M02 60")).toBe("length"); // FR: 27
    expect(ibanProblem("CH93 0076 2011 6238 5295")).toBe("length"); // CH: 21
  });

  it("refuses a BBAN whose structure the country does not use", () => {
    expect(ibanProblem("DE89 3704 0044 0532 0130 0A")).toBe("format"); // German BBANs are digits only
  });
});

describe("BIC", () => {
  it("accepts 8 and 11 characters in the ISO 9362 layout", () => {
    for (const b of ["DEUTDEFF", "DEUTDEFF500", "COBADEFFXXX", "ubswchzh80a"]) expect(isValidBic(b), b).toBe(true);
  });
  it("refuses other shapes", () => {
    for (const b of ["DEUTDEF", "DEUTDEFF5", "1EUTDEFF", "DEUT1EFF", "DEUTDEFF50!", ""]) expect(isValidBic(b), b).toBe(false);
  });
});

it("groups in fours", () => {
  expect(groupsOfFour("DE89370400440532013000")).toBe("DE89 3704 0044 0532 0130 00");
  expect(groupsOfFour("RF18539007547034")).toBe("RF18 5390 0754 7034");
});
