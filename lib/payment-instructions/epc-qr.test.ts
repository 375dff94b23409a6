import { describe, expect, it } from "vitest";
import { create } from "qrcode";
import { epcPayload, qrPath } from "./epc-qr";

describe("EPC069-12 payload", () => {
  it("lists the fields of version 002 in order, the RF reference as structured remittance", () => {
    const p = epcPayload({
      bic: "cobadeffxxx",
      holder: "Acme Services GmbH",
      iban: "DE89 3704 0044 0532 0130 00",
      amountMinor: "125050",
      reference: "RF18539007547034",
    });
    expect(p!.split("\n")).toEqual([
      "BCD",
      "002",
      "1",
      "SCT",
      "COBADEFFXXX",
      "Acme Services GmbH",
      "DE89370400440532013000",
      "EUR1250.50",
      "",
      "RF18539007547034",
    ]);
  });

  it("leaves out what is missing and ends with the last filled field", () => {
    expect(epcPayload({ holder: "A", iban: "DE89370400440532013000" })).toBe("BCD\n002\n1\nSCT\n\nA\nDE89370400440532013000");
    expect(epcPayload({ holder: "A", iban: "DE89370400440532013000", amountMinor: "0", reference: "RF18539007547034" })!.split("\n")[7]).toBe("");
    expect(epcPayload({ holder: "A", iban: "" })).toBeNull();
  });

  it("cuts the holder to 70 characters and writes small amounts with a leading zero", () => {
    const p = epcPayload({ holder: "x".repeat(90), iban: "DE89370400440532013000", amountMinor: "5" })!.split("\n");
    expect(p[5]).toHaveLength(70);
    expect(p[7]).toBe("EUR0.05");
  });
});

it("draws every dark module once", () => {
  const q = create("BCD\n002", { errorCorrectionLevel: "M" });
  const d = qrPath(q.modules);
  const area = [...d.matchAll(/h(\d+)/g)].reduce((s, m) => s + Number(m[1]), 0);
  expect(area).toBe(Array.from(q.modules.data).filter(Boolean).length);
});
