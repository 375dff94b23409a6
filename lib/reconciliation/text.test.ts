import { describe, expect, it } from "vitest";
import { compareNames, containsIdentifier, nameKey, normalizeName, tokenize } from "@/lib/reconciliation/text";

describe("tokenize", () => {
  it("keeps identifiers joined by - / _ and digit.digit together, splits everything else", () => {
    expect(tokenize("Invoice no.INV-12, PO/77 (ref 2026.001).")).toEqual(["INVOICE", "NO", "INV-12", "PO/77", "REF", "2026.001"]);
    expect(tokenize("#inv-12;INV-13 x_y")).toEqual(["INV-12", "INV-13", "X_Y"]);
    expect(tokenize("Zahlung Rechnung Nr. 4711 für März")).toEqual(["ZAHLUNG", "RECHNUNG", "NR", "4711", "FÜR", "MÄRZ"]);
    expect(tokenize("")).toEqual([]);
    expect(tokenize("--- ... ///")).toEqual([]);
  });
});

describe("containsIdentifier", () => {
  const has = (text: string, id: string) => containsIdentifier(tokenize(text), id);
  it("finds a whole token and never a part of a longer one", () => {
    expect(has("Payment INV-12 thanks", "INV-12")).toBe(true);
    expect(has("(INV-12)", "INV-12")).toBe(true);
    expect(has("inv-12.", "INV-12")).toBe(true);
    expect(has("INV12", "INV-12")).toBe(true); // banks drop hyphens
    expect(has("Payment INV-123", "INV-12")).toBe(false);
    expect(has("Payment XINV-12", "INV-12")).toBe(false);
    expect(has("INV-12-A", "INV-12")).toBe(false);
    expect(has("INV-12/2026", "INV-12")).toBe(false);
    expect(has("INV-1", "INV-12")).toBe(false);
    expect(has("INV 123", "INV-12")).toBe(false);
  });
  it("matches a multi-token identifier as a contiguous run", () => {
    expect(has("paying INV 2026 12 now", "INV 2026 12")).toBe(true);
    expect(has("paying INV 2026 now 12", "INV 2026 12")).toBe(false);
  });
  it("ignores identifiers too short to mean anything", () => {
    expect(has("amount 12 EUR", "12")).toBe(false);
    expect(has("A1", "A-1")).toBe(false);
  });
});

describe("normalizeName / compareNames", () => {
  it("folds case, accents, punctuation and legal forms", () => {
    expect(normalizeName("Northwind Traders Ltd.")).toBe("northwind traders");
    expect(normalizeName("NORTHWIND TRADERS LIMITED")).toBe("northwind traders");
    expect(normalizeName("The Northwind-Traders")).toBe("northwind traders");
    expect(normalizeName("Müller & Söhne GmbH & Co. KG")).toBe("muller and sohne");
    expect(normalizeName("Exemple S.A.R.L.")).toBe("exemple");
    expect(normalizeName("Voorbeeld B.V.")).toBe("voorbeeld");
    expect(normalizeName("ACME, Inc.")).toBe("acme");
    expect(normalizeName("Widgets LLC")).toBe("widgets");
    expect(normalizeName("Bauer AG")).toBe("bauer");
    expect(normalizeName("Tesco PLC")).toBe("tesco");
    expect(normalizeName("Société Générale SA")).toBe("societe generale");
    expect(normalizeName("GmbH")).toBe("gmbh");
    expect(normalizeName("")).toBe("");
  });
  it("compares names", () => {
    expect(compareNames("NORTHWIND TRADERS LTD", "Northwind Traders Limited")).toBe("same");
    expect(compareNames("Northwind", "Northwind Traders Ltd")).toBe("similar");
    expect(compareNames("NORTHWIND TRAD", "Northwind Traders")).toBe("similar");
    expect(compareNames("Southwind Traders", "Northwind Traders")).toBe("different");
    expect(compareNames("AB", "AB Foods")).toBe("different");
    expect(compareNames("Debtor 12", "Debtor 123")).toBe("different");
    expect(compareNames("", "Northwind")).toBe("different");
  });
  it("nameKey is the first four characters, lower-cased", () => {
    expect(nameKey("  Northwind Traders")).toBe("nort");
    expect(nameKey("Mü")).toBe("mü");
  });
});
