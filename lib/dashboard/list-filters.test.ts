import { describe, expect, it } from "vitest";
import { parseListFilters } from "@/lib/dashboard/list-filters";

describe("parseListFilters", () => {
  it("reads the form's fields, empty ones meaning no filter", () => {
    const f = parseListFilters({ search: " acme ", status: "", role: "creditor", currency: "JPY", overdue: "true", sort: "deadline", direction: "" });
    expect(f.errors).toEqual([]);
    expect(f.query).toMatchObject({ search: "acme", role: "creditor", currency: "JPY", overdue: true, sort: "deadline", limit: 50, offset: 0 });
    expect(f.query.direction).toBeUndefined();
    expect(f.params).toEqual({ search: "acme", role: "creditor", currency: "JPY", overdue: "true", sort: "deadline" });
    expect(f.active).toBe(true);
  });
  it("joins repeated fields with commas, as the API takes them", () => {
    const f = parseListFilters({ status: ["RECONCILED", "PAYMENT_CLAIMED"] });
    expect(f.query.status).toEqual(["RECONCILED", "PAYMENT_CLAIMED"]);
    expect(f.params.status).toBe("RECONCILED,PAYMENT_CLAIMED");
  });
  it("drops and names an invalid field, keeping the others", () => {
    const f = parseListFilters({ currency: "XYZ", role: "debtor", limit: "1000" });
    expect(f.errors.map((e) => e.field).sort()).toEqual(["currency", "limit"]);
    expect(f.query).toMatchObject({ role: "debtor", limit: 50 });
    expect(f.query.currency).toBeUndefined();
    expect(f.values.currency).toBe("");
  });
  it("is inactive with only a sort", () => {
    expect(parseListFilters({ sort: "amount", direction: "asc" }).active).toBe(false);
  });
});
