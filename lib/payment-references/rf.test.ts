import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { findRfReferences, formatRf, isValidRf, paymentReferenceFor, rfReference } from "./rf";

describe("ISO 11649 creditor references", () => {
  it("matches the standard's published example", () => {
    // ISO 11649 / EPC example: RF18 5390 0754 7034
    expect(rfReference("539007547034")).toBe("RF18539007547034");
    expect(isValidRf("RF18 5390 0754 7034")).toBe(true);
    expect(isValidRf("rf18539007547034")).toBe(true);
    expect(isValidRf("RF19539007547034")).toBe(false);
    expect(formatRf("RF18539007547034")).toBe("RF18 5390 0754 7034");
  });

  // Mod 97 detects every substitution of a digit by a digit and of a letter by a letter (the
  // difference, times a power of 10, is never a multiple of the prime 97). A digit replaced by a
  // letter changes the length of the expanded number, which mod 97 does not always catch.
  it("round-trips any body and detects every single substitution within digits or within letters", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z0-9]{1,21}$/), fc.nat(), fc.nat(), (body, pos, pick) => {
        const rf = rfReference(body);
        expect(isValidRf(rf)).toBe(true);
        const i = 4 + (pos % body.length);
        const same = /[0-9]/.test(rf[i]) ? "0123456789" : "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        const ch = same[pick % same.length];
        if (rf[i] !== ch) expect(isValidRf(rf.slice(0, i) + ch + rf.slice(i + 1))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it("derives the obligation's payment reference from its reference", () => {
    const rf = paymentReferenceFor("OBL-7K3M9Q2XBC");
    expect(rf).toMatch(/^RF\d{2}7K3M9Q2XBC$/);
    expect(isValidRf(rf)).toBe(true);
  });

  it("finds references in free text, with or without group spaces, and ignores invalid ones", () => {
    const a = rfReference("7K3M9Q2XBC");
    const b = rfReference("ABCD123");
    const text = `Payment ${formatRf(a)} and ${b.toLowerCase()} thanks; also RF00BAD and ${a.slice(0, -1)}Z`;
    expect(findRfReferences(text).sort()).toEqual([a, b].sort());
  });
});
