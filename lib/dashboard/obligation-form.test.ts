import { describe, expect, it } from "vitest";
import { ZRegisterObligation } from "@/lib/schemas/obligations";
import { defaultFormValues, emptyTerm, keyFromLabel, toRegisterBody, ZObligationFormValues, type TObligationFormValues } from "./obligation-form";

const base = (over: Partial<TObligationFormValues> = {}): TObligationFormValues => ({
  ...defaultFormValues({ deadline: "2026-12-31", currency: "EUR" }),
  counterparty_name: "Northwind Traders",
  counterparty_email: "ap@northwind.example",
  amount: "1,250.50",
  invoice_number: "INV-1",
  ...over,
});

describe("toRegisterBody", () => {
  it("builds the API body with minor units from the decimal amount", () => {
    const r = toRegisterBody(base({ description: "  Consulting  " }));
    expect(r.issues).toEqual([]);
    expect(r.body).toEqual({
      obligation_type: "invoice",
      organization_role: "creditor",
      external_reference: { namespace: "dashboard", id: "INV-1" },
      debtor: { name: "Northwind Traders", email: "ap@northwind.example" },
      amount_minor: "125050",
      currency: "EUR",
      deadline: "2026-12-31",
      business_context: { invoice_number: "INV-1", description: "Consulting" },
    });
    expect(ZRegisterObligation.safeParse(r.body).success).toBe(true);
  });

  it("uses the currency's minor digits (JPY has none)", () => {
    expect(toRegisterBody(base({ currency: "JPY", amount: "150000" })).body?.amount_minor).toBe("150000");
    expect(toRegisterBody(base({ currency: "JPY", amount: "1500.5" })).issues).toEqual([{ path: ["amount"], message: "JPY amounts have no decimal places." }]);
  });

  it("puts the counterparty on the other side when the organization owes", () => {
    const r = toRegisterBody(base({ organization_role: "debtor", counterparty_email: "" }));
    expect(r.body?.creditor).toEqual({ name: "Northwind Traders" });
    expect(r.body?.debtor).toBeUndefined();
  });

  it("converts conditions and terms (percentages in basis points, condition keys)", () => {
    const r = toRegisterBody(
      base({
        amount: "1000",
        conditions: [{ label: "Site acceptance", key: "" }],
        payment_terms: [
          { ...emptyTerm(), label: "Deposit", percent: "30", due_rule: "immediately" },
          { ...emptyTerm(), percent: "70", trigger_type: "condition_satisfied", condition_key: "site-acceptance", due_days: "30" },
        ],
      }),
    );
    expect(r.issues).toEqual([]);
    expect(r.body?.conditions).toEqual([{ key: "site-acceptance", label: "Site acceptance" }]);
    expect(r.body?.payment_terms).toEqual([
      { sequence: 1, label: "Deposit", amount_type: "percentage", percentage_basis_points: 3000, trigger_type: "immediately", due_rule: "immediately" },
      {
        sequence: 2,
        amount_type: "percentage",
        percentage_basis_points: 7000,
        trigger_type: "condition_satisfied",
        condition_key: "site-acceptance",
        due_rule: "days_after_trigger",
        due_days: 30,
      },
    ]);
  });

  it("reports terms that do not add up, in the form's words", () => {
    const r = toRegisterBody(
      base({
        amount: "1000",
        payment_terms: [
          { ...emptyTerm(), amount_type: "fixed", amount: "300" },
          { ...emptyTerm(), percent: "50" },
        ],
      }),
    );
    expect(r.issues).toHaveLength(1);
    expect(r.issues[0].path).toEqual(["payment_terms"]);
    expect(r.issues[0].message).toMatch(/add up to .*800\.00.* not to the amount of .*1,000\.00/);
  });

  it("names the offending row fields", () => {
    const r = toRegisterBody(
      base({
        conditions: [
          { label: "A", key: "same" },
          { label: "B", key: "same" },
        ],
        payment_terms: [{ ...emptyTerm(), percent: "100", trigger_type: "specific_date", due_rule: "days_after_trigger", due_days: "0" }],
      }),
    );
    expect(r.issues.map((i) => i.path.join("."))).toEqual(["conditions.1.key", "payment_terms.0.trigger_date", "payment_terms.0.due_days"]);
  });

  it("maps API schema issues back to form fields", () => {
    const r = toRegisterBody(base({ invoice_number: "x".repeat(201) }));
    expect(r.issues.map((i) => i.path.join("."))).toContain("invoice_number");
  });
});

describe("ZObligationFormValues", () => {
  it("accepts a valid form and rejects a bad email and amount", () => {
    expect(ZObligationFormValues.safeParse(base()).success).toBe(true);
    const bad = ZObligationFormValues.safeParse(base({ counterparty_email: "not-an-email", amount: "12,50" }));
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join(".")).sort()).toEqual(["amount", "counterparty_email"]);
  });
});

describe("keyFromLabel", () => {
  it("slugs labels", () => {
    expect(keyFromLabel("Inspection passed")).toBe("inspection-passed");
    expect(keyFromLabel("Équipe validée !")).toBe("equipe-validee");
    expect(keyFromLabel("***")).toBe("condition");
  });
});
