import { describe, expect, it } from "vitest";
import { toAllocateBody, toRecordPaymentBody, ZRecordPaymentForm } from "./payment-forms";

describe("record payment form", () => {
  const base = { amount: "1,234.5", currency: "EUR" as const, received_on: "2026-11-20", payer_name: " Globex ", reference: "", note: "" };
  it("builds the RecordPayment body in minor units", () => {
    expect(toRecordPaymentBody(base)).toEqual({
      body: { amount_minor: "123450", currency: "EUR", received_on: "2026-11-20", payer_name: "Globex" },
      issues: [],
    });
    expect(toRecordPaymentBody({ ...base, currency: "JPY", amount: "5000" }).body?.amount_minor).toBe("5000");
  });
  it("reports the amount in the form's words", () => {
    expect(toRecordPaymentBody({ ...base, amount: "0" }).issues).toEqual([{ path: ["amount"], message: "The amount must be greater than zero." }]);
    const r = ZRecordPaymentForm.safeParse({ ...base, received_on: "20.11.2026" });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join("."))).toContain("received_on");
  });
});

describe("allocate form", () => {
  const id = "3f1c1c1e-8a7b-4c7e-9b1a-2d3e4f5a6b7c";
  it("builds the AllocatePayment body with the obligation's version", () => {
    expect(toAllocateBody({ obligation_id: id, amount: "400.00" }, "EUR", 3)).toEqual({
      body: { obligation_id: id, amount_minor: "40000", expected_version: 3 },
      issues: [],
    });
  });
  it("refuses too many decimals for the currency", () => {
    expect(toAllocateBody({ obligation_id: id, amount: "1.5" }, "JPY", 1).issues[0].path).toEqual(["amount"]);
  });
});
