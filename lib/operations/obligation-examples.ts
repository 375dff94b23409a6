import type { TInvoiceRecord, TMutationResult, TObligationProjection, TPaymentTermInput } from "@/lib/schemas/obligations";

// Examples of the OpenAPI document (one consistent story: a 30/70 milestone invoice).
// The ids of the examples' one story, shared by every capability's examples.
export const ORG = "3f0c2a8e-5b7d-4c1e-9a6f-2d8b4e7c1a90";
export const OBL = "8a6e0f7c-2d4b-4f19-b3c5-7e9a1d2c4b68";
const COND = "c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f";
const TERM1 = "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e";
const TERM2 = "1c2d3e4f-5a6b-4c7d-9e8f-0a1b2c3d4e5f";
export const REQ = "5e4d3c2b-1a09-4f8e-8d7c-6b5a4f3e2d1c";
const EVENT = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";
const CTX = "7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2f10";

// 30 % at once, 70 % after the customer's acceptance: the example of the API document
// and the demo seed's milestone contract.
export const DEPOSIT_AND_ACCEPTANCE_TERMS: TPaymentTermInput[] = [
  {
    sequence: 1,
    label: "Deposit",
    amount_type: "percentage",
    percentage_basis_points: 3000,
    trigger_type: "immediately",
    due_rule: "days_after_trigger",
    due_days: 14,
  },
  {
    sequence: 2,
    label: "On acceptance",
    amount_type: "percentage",
    percentage_basis_points: 7000,
    trigger_type: "condition_satisfied",
    condition_key: "acceptance",
    due_rule: "days_after_trigger",
    due_days: 30,
  },
];

export const EXAMPLE_REGISTER = {
  obligation_type: "invoice",
  organization_role: "creditor",
  external_reference: { namespace: "erp", id: "INV-2026-0042" },
  debtor: { name: "Northwind Traders", email: "ap@northwind.example" },
  amount_minor: "1250000",
  currency: "EUR",
  deadline: "2026-12-31",
  business_context: { invoice_number: "INV-2026-0042", description: "Warehouse fit-out, phase 1" },
  label: "Fit-out phase 1",
  conditions: [{ key: "acceptance", label: "Customer acceptance of phase 1" }],
  payment_terms: DEPOSIT_AND_ACCEPTANCE_TERMS,
  context_ids: [CTX],
};

const conditions: TInvoiceRecord["conditions"] = [
  { id: COND, key: "acceptance", label: "Customer acceptance of phase 1", status: "waiting", source: "", evidence_reference: "" },
];
const paymentTerms: TInvoiceRecord["payment_terms"] = [
  {
    id: TERM1,
    sequence: 1,
    label: "Deposit",
    amount_type: "percentage",
    percentage_basis_points: 3000,
    amount_minor: "375000",
    trigger_type: "immediately",
    due_rule: "days_after_trigger",
    due_days: 14,
    triggered_on: "2026-11-02",
    payable_on: "2026-11-16",
  },
  {
    id: TERM2,
    sequence: 2,
    label: "On acceptance",
    amount_type: "percentage",
    percentage_basis_points: 7000,
    amount_minor: "875000",
    trigger_type: "condition_satisfied",
    condition_id: COND,
    condition_key: "acceptance",
    due_rule: "days_after_trigger",
    due_days: 30,
  },
];
const contexts: TInvoiceRecord["contexts"] = [
  { id: CTX, type: "project", kind: "group", type_label: "Project", name: "Warehouse fit-out", reference: "PRJ-7", relationship_type: "related" },
];

export function exampleInvoiceRecord(overrides: Partial<TInvoiceRecord> = {}): TInvoiceRecord {
  return {
    id: OBL,
    organization_id: ORG,
    issuer_name: "Demo Company Ltd",
    reference: "OBL-7K3M9Q2X4B",
    obligation_type: "invoice",
    organization_role: "creditor",
    obligation_label: "Fit-out phase 1",
    creditor_name: "Demo Company Ltd",
    creditor_email: "",
    debtor_name: "Northwind Traders",
    debtor_email: "ap@northwind.example",
    recipient_name: "Northwind Traders",
    recipient_email: "ap@northwind.example",
    external_namespace: "erp",
    external_id: "INV-2026-0042",
    invoice_number: "INV-2026-0042",
    description: "Warehouse fit-out, phase 1",
    condition_summary: "",
    condition_status: "pending",
    condition_satisfied_on: "",
    conditions,
    payment_terms: paymentTerms,
    contexts,
    amount_minor: "1250000",
    allocated_minor: "0",
    payable_minor: "375000",
    due_minor: "0",
    currency: "EUR",
    due_date: "2026-12-31",
    expected_payment_date: "",
    reported_payment_date: "",
    created_at: "2026-11-02T09:30:00.000Z",
    updated_at: "2026-11-02T09:30:00.000Z",
    link_expires_at: "2027-01-31T09:30:00.000Z",
    status: "OBLIGATION_CAPTURED",
    version: 1,
    acknowledged: false,
    link_revoked: false,
    ...overrides,
  };
}

export function exampleProjection(overrides: Partial<TObligationProjection> = {}): TObligationProjection {
  const r = exampleInvoiceRecord();
  return {
    id: r.id,
    organization_id: r.organization_id,
    reference: r.reference,
    amount_minor: r.amount_minor,
    allocated_minor: r.allocated_minor,
    payable_minor: r.payable_minor,
    due_minor: r.due_minor,
    currency: r.currency,
    expected_payment_date: "",
    reported_payment_date: "",
    created_at: r.created_at,
    updated_at: r.updated_at,
    status: r.status,
    version: r.version,
    acknowledged: false,
    obligation_type: "invoice",
    organization_role: "creditor",
    external_reference: { namespace: "erp", id: "INV-2026-0042" },
    debtor: { name: "Northwind Traders", email: "ap@northwind.example" },
    deadline: "2026-12-31",
    business_context: { invoice_number: "INV-2026-0042", description: "Warehouse fit-out, phase 1" },
    creditor: { name: "Demo Company Ltd" },
    label: "Fit-out phase 1",
    condition: { summary: "", status: "pending", satisfied_on: "" },
    conditions,
    payment_terms: paymentTerms,
    contexts,
    ...overrides,
  };
}

export const EXAMPLE_PAYMENT_REQUEST = {
  id: REQ,
  obligation_id: OBL,
  hosted_url: `https://obligations.example.com/r/${REQ}#3q2-7wEVLMxQK0aQ8lJwYvH4c7yq3Z0m1N5bT6uR9sA`,
  expires_at: "2027-01-31T09:30:00.000Z",
};

export function exampleMutationResult(
  eventType: string,
  opts: { withPaymentRequest?: boolean; documentId?: string; record?: Partial<TInvoiceRecord> } = {},
): TMutationResult {
  const invoice = exampleInvoiceRecord(opts.record);
  return {
    invoice,
    operation_id: EVENT,
    event_type: eventType,
    ...(opts.documentId ? { document_id: opts.documentId } : {}),
    obligation: exampleProjection({
      version: invoice.version,
      status: invoice.status,
      updated_at: invoice.updated_at,
      expected_payment_date: invoice.expected_payment_date,
      payable_minor: invoice.payable_minor,
      due_minor: invoice.due_minor,
      conditions: invoice.conditions,
      payment_terms: invoice.payment_terms,
      condition: { summary: invoice.condition_summary, status: invoice.condition_status, satisfied_on: invoice.condition_satisfied_on },
    }),
    ...(opts.withPaymentRequest ? { payment_request: EXAMPLE_PAYMENT_REQUEST } : {}),
  };
}

const detailExtras = () => ({
  credits: [],
  settled: { by_payments_minor: "0", by_credits_minor: "0" },
  outstanding_minor: "1250000",
  payment_reference: "RF637K3M9Q2X4B",
  audit_trail: [
    {
      id: EVENT,
      event_type: "obligation.registered",
      actor: { type: "api_key" as const, id: "2b3c4d5e-6f70-4182-93a4-b5c6d7e8f901", label: "API key" },
      created_at: "2026-11-02T09:30:00.000Z",
      detail: { reference: "OBL-7K3M9Q2X4B" },
    },
  ],
  audit_trail_total: 1,
  documents: [],
  messages: [],
  messages_total: 0,
  payment_request: { ...EXAMPLE_PAYMENT_REQUEST, revoked: false },
  dispute: null,
  promise: null,
  reminders: [
    {
      offset_days: -3,
      tone: "friendly" as const,
      channel: "email" as const,
      status: "sent" as const,
      scheduled_on: "2026-12-28",
      language: "de",
      sent_at: "2026-12-28T06:00:04.000Z",
      last_error: "",
    },
  ],
});

export const exampleObligationDetail = () => ({ ...exampleProjection(), ...detailExtras() });
export const exampleInvoiceDetail = () => ({ ...exampleInvoiceRecord(), ...detailExtras() });
export const exampleObligationList = () => ({ items: [exampleProjection()], limit: 50, offset: 0 });
export const exampleInvoiceList = () => ({ items: [exampleInvoiceRecord()], limit: 50, offset: 0 });
