// The registration the benchmarks send (scripts/bench/run.ts, citus.ts, obligations.ts): a
// contract with a business context, one condition and two payment terms, 10,000.01 EUR.
export function registrationBody(i: string) {
  return {
    obligation_type: "contractual",
    external_reference: { namespace: "bench", id: `B-${i}` },
    debtor: { name: "Bench Customer", email: "ap@bench.example" },
    amount_minor: "1000001",
    currency: "EUR",
    deadline: "2027-06-30",
    business_context: { invoice_number: `B-${i.slice(0, 12)}` },
    conditions: [{ key: "acceptance", label: "Acceptance" }],
    payment_terms: [
      { sequence: 1, amount_type: "percentage", percentage_basis_points: 3000, trigger_type: "immediately", due_rule: "days_after_trigger", due_days: 14 },
      {
        sequence: 2,
        amount_type: "percentage",
        percentage_basis_points: 7000,
        trigger_type: "condition_satisfied",
        condition_key: "acceptance",
        due_rule: "days_after_trigger",
        due_days: 30,
      },
    ],
  };
}

// An invoice of the same amount, without conditions and terms: no rows of those tables.
export function plainRegistrationBody(i: string) {
  const { conditions: _conditions, payment_terms: _terms, ...rest } = registrationBody(i);
  return { ...rest, obligation_type: "invoice" };
}
