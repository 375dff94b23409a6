import { defineOperation } from "@/lib/http/operation";
import { ZIdParams, ZPageQuery } from "@/lib/schemas/common";
import {
  ZDismissPayment,
  ZPaymentAllocationParams,
  ZReverseEntry,
  ZAllocatePayment,
  ZPayment,
  ZPaymentAllocationResult,
  ZPaymentList,
  ZRecordPayment,
  type TPayment,
  type TPaymentAllocationResult,
} from "@/lib/schemas/payments";
import { OBL, ORG, exampleMutationResult } from "@/lib/operations/obligation-examples";

const tags = ["Payments"];

// Examples (one story: a EUR 12,500.00 obligation, paid 3,750.00 by bank transfer).
export const PAY = "6b1f9e2d-3c4a-4b5d-8e6f-7a8b9c0d1e2f";
export const ALLOC = "2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b";

const EXAMPLE_RECORD = {
  amount_minor: "375000",
  currency: "EUR",
  received_on: "2026-11-14",
  payer_name: "Northwind Traders",
  reference: "INV-2026-0042 deposit",
  external_reference: { namespace: "bank-feed", id: "TX-88213" },
  note: "Seen on the EUR operating account",
};

const examplePayment = (overrides: Partial<TPayment> = {}): TPayment => ({
  id: PAY,
  organization_id: ORG,
  amount_minor: "375000",
  currency: "EUR",
  direction: "incoming",
  received_on: "2026-11-14",
  payer_name: "Northwind Traders",
  reference: "INV-2026-0042 deposit",
  external_reference: { namespace: "bank-feed", id: "TX-88213" },
  note: "Seen on the EUR operating account",
  allocated_minor: "0",
  unallocated_minor: "375000",
  allocations: [],
  created_at: "2026-11-14T08:00:00.000Z",
  updated_at: "2026-11-14T08:00:00.000Z",
  status: "unallocated",
  dismissal: null,
  ...overrides,
});

const EXAMPLE_ALLOCATION = {
  id: ALLOC,
  payment_id: PAY,
  obligation_id: OBL,
  obligation_reference: "OBL-7K3M9Q2X4B",
  amount_minor: "375000",
  created_at: "2026-11-14T08:05:00.000Z",
  reversed_at: null,
  reversal_reason: "",
};

const allocatedPayment = () =>
  examplePayment({
    allocated_minor: "375000",
    unallocated_minor: "0",
    allocations: [
      {
        id: ALLOC,
        obligation_id: OBL,
        obligation_reference: "OBL-7K3M9Q2X4B",
        amount_minor: "375000",
        created_at: "2026-11-14T08:05:00.000Z",
        reversed_at: null,
        reversal_reason: "",
      },
    ],
    updated_at: "2026-11-14T08:05:00.000Z",
    status: "allocated",
  });

function exampleAllocationResult(): TPaymentAllocationResult {
  const r = exampleMutationResult("payment.allocated", {
    record: { allocated_minor: "375000", status: "PARTIALLY_RECONCILED", version: 2, updated_at: "2026-11-14T08:05:00.000Z" },
  });
  return {
    ...r,
    // biome-ignore lint/style/noNonNullAssertion: the example mutation result always carries its obligation
    obligation: { ...r.obligation!, allocated_minor: "375000" },
    allocation: EXAMPLE_ALLOCATION,
    payment: allocatedPayment(),
  };
}

function exampleReversalResult(): TPaymentAllocationResult {
  const r = exampleMutationResult("payment.allocation_reversed", {
    record: { allocated_minor: "0", status: "PAYMENT_REQUESTED", version: 3, updated_at: "2026-11-15T10:00:00.000Z" },
  });
  const reversed = { reversed_at: "2026-11-15T10:00:00.000Z", reversal_reason: "Allocated to the wrong invoice" };
  return {
    ...r,
    // biome-ignore lint/style/noNonNullAssertion: the example mutation result always carries its obligation
    obligation: { ...r.obligation!, allocated_minor: "0", status: "PAYMENT_REQUESTED", version: 3 },
    allocation: { ...EXAMPLE_ALLOCATION, ...reversed },
    payment: examplePayment({
      allocations: [{ ...EXAMPLE_ALLOCATION, payment_id: undefined, ...reversed }].map(({ payment_id: _p, ...a }) => a),
      updated_at: "2026-11-15T10:00:00.000Z",
    }),
  };
}

export const recordPaymentOp = defineOperation({
  operationId: "recordPayment",
  method: "POST",
  path: "/payments",
  summary: "Record an observed payment (does not confirm settlement)",
  description: [
    'Records a payment as an external observation — the service never moves money and this does not confirm settlement. The payment starts with `allocated_minor` "0" and `unallocated_minor` equal to `amount_minor`; allocate it to obligations with POST /payments/{id}/allocations.',
    'Unset `payer_name`, `reference` and `note` are `""`; `external_reference` is `null` when not given.',
    "`external_reference` (namespace + id) is unique per organization. Recording the same external reference again with a **different** Idempotency-Key is refused with 409 `duplicate`, whose message names the existing payment id; a retry of the same request with the **same** Idempotency-Key replays the stored 201 response (`Idempotent-Replayed: true`). Payments without an external reference are never considered duplicates.",
    "Event `payment.recorded` (webhook `data.payment`).",
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "payments:write",
  idempotent: "required",
  body: ZRecordPayment,
  bodyExample: EXAMPLE_RECORD,
  success: { status: 201, description: "Recorded", schema: ZPayment, example: examplePayment() },
});

export const listPaymentsOp = defineOperation({
  operationId: "listPayments",
  method: "GET",
  path: "/payments",
  summary: "List observed payments (newest first) with their allocations",
  description:
    "Items are payments ordered by created_at, then id, both descending (stable across pages), each with its allocation projections (`allocations`, oldest first), `allocated_minor` and `unallocated_minor`.",
  tags,
  auth: "issuer",
  permission: "payments:read",
  query: ZPageQuery,
  success: { status: 200, description: "A page of payments", schema: ZPaymentList, example: { items: [allocatedPayment()], limit: 50, offset: 0 } },
});

export const getPaymentOp = defineOperation({
  operationId: "getPayment",
  method: "GET",
  path: "/payments/{id}",
  summary: "Payment with all accepted obligation allocations",
  description:
    "The payment with every accepted allocation (oldest first) and what is left to allocate (`unallocated_minor`). An id of another organization is 404.",
  tags,
  auth: "issuer",
  permission: "payments:read",
  params: ZIdParams,
  success: { status: 200, description: "The payment", schema: ZPayment, example: allocatedPayment() },
});

export const allocatePaymentOp = defineOperation({
  operationId: "allocatePayment",
  method: "POST",
  path: "/payments/{id}/allocations",
  summary: "Allocate part of a payment to an obligation (accepts the evidence)",
  description: [
    "Accepts the payment as evidence for an obligation and allocates `amount_minor` of it, atomically: the allocation, the payment's `allocated_minor`, the obligation's `allocated_minor`, `status` and `version` (+1) and the event commit together or not at all. `expected_version` is the obligation's version.",
    "Status: PARTIALLY_RECONCILED while 0 < allocated_minor < amount_minor, RECONCILED when allocated_minor = amount_minor, from any earlier state; a RECONCILED obligation has nothing outstanding, so further allocations to it are refused; only a reversal (of an allocation or a credit) moves it back.",
    "Refusals, in this order: 404 `not_found` for an unknown payment or one of another organization, and likewise for `obligation_id` (an obligation of another organization is 404 too, its existence is never revealed); 409 `version_conflict` when `expected_version` is stale; 422 `currency_mismatch` when the currencies differ; 422 `direction_mismatch` when an `incoming` payment meets an obligation where the organization is the debtor, or an `outgoing` one an obligation where it is the creditor; 422 `allocation_exceeds_remaining` when `amount_minor` is larger than the payment's `unallocated_minor` or the obligation's outstanding amount (`amount_minor - allocated_minor`, shown as `outstanding_minor` in the obligation detail).",
    "Concurrency: allocations lock the payment row first, then change the obligation row under its version check, so concurrent allocations never exceed either amount and cannot deadlock one another; should the database still report a deadlock or serialization failure, the call is 409 `version_conflict` with nothing changed — re-read the obligation and retry.",
    "The result is the mutation result (`invoice`, `obligation`, `operation_id`, `event_type` = `payment.allocated`) plus `allocation` and `payment` (after the allocation). Event `payment.allocated` (webhook `data.obligation` and `data.payment`), listed in the obligation's audit trail.",
    "Short payments in one step: with `settle_remainder` `{ kind: bank_fee | discount | write_off, reason }`, whatever the obligation still has outstanding after the allocation is credited in the same transaction (event `obligation.credited`; the result's `credit`, and `obligation` after both). Nothing is credited when nothing is left.",
    "A dismissed payment (POST /payments/{id}/dismiss) is not allocated: 409 `invalid_state` until it is restored. A wrong allocation is undone with POST /payments/{id}/allocations/{allocation}/reverse.",
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "payments:write",
  idempotent: "required",
  params: ZIdParams,
  body: ZAllocatePayment,
  bodyExample: { obligation_id: OBL, amount_minor: "375000", expected_version: 1 },
  success: { status: 200, description: "Allocated", schema: ZPaymentAllocationResult, example: exampleAllocationResult() },
});

export const reverseAllocationOp = defineOperation({
  operationId: "reverseAllocation",
  method: "POST",
  path: "/payments/{id}/allocations/{allocation}/reverse",
  summary: "Reverse an allocation",
  description: [
    "Undoes a wrong allocation. It stays in the payment's `allocations` with `reversed_at` and `reversal_reason`; the payment's `allocated_minor` and the obligation's drop by its amount, and the obligation's status is the one it has without it: PARTIALLY_RECONCILED while something is still settled, else PAYMENT_CLAIMED if a payment was reported, else PAYMENT_REQUESTED if the link was sent or opened, else OBLIGATION_CAPTURED. This (with the reversal of a credit) is the one way a RECONCILED obligation moves back.",
    "`expected_version` is the obligation's version. Locks as an allocation does (the payment, then the obligation under its version check): a reversal racing an allocation or a credit of the same obligation leaves one of them done and the other 409 `version_conflict`.",
    "Refusals: 404 `not_found` (unknown payment or allocation, or another organization's); 409 `version_conflict`; 409 `invalid_state` when the allocation is already reversed.",
    "200: the mutation result (`event_type` = `payment.allocation_reversed`) plus `allocation` (now with `reversed_at`) and `payment` after the change. Event `payment.allocation_reversed` (webhook `data.obligation` and `data.payment`).",
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "payments:write",
  idempotent: "required",
  params: ZPaymentAllocationParams,
  body: ZReverseEntry,
  bodyExample: { expected_version: 2, reason: "Allocated to the wrong invoice" },
  success: { status: 200, description: "Reversed", schema: ZPaymentAllocationResult, example: exampleReversalResult() },
});

const DISMISSAL = { reason: "bank_fee" as const, note: "Monthly account charges", dismissed_at: "2026-11-15T09:00:00.000Z" };

export const dismissPaymentOp = defineOperation({
  operationId: "dismissPayment",
  method: "POST",
  path: "/payments/{id}/dismiss",
  summary: "Dismiss a payment that is not a receivable",
  description: [
    "Takes a bank line that is not a receivable (bank charges, an internal transfer, a refund...) out of the queue of unallocated payments: `status` becomes `dismissed` and `dismissal` says why (`reason`: `bank_fee`, `internal_transfer`, `refund`, `not_receivable` or `other`; optional `note`). Only with nothing allocated (409 `invalid_state`: reverse its allocations first; also when already dismissed). A dismissed payment gets no suggestions and is not allocated until restored.",
    "200: the payment. Event `payment.dismissed` (webhook `data.payment`).",
  ].join("\n\n"),
  tags,
  auth: "issuer",
  permission: "payments:write",
  idempotent: "required",
  params: ZIdParams,
  body: ZDismissPayment,
  bodyExample: { reason: "bank_fee", note: "Monthly account charges" },
  success: {
    status: 200,
    description: "Dismissed",
    schema: ZPayment,
    example: examplePayment({ status: "dismissed", dismissal: DISMISSAL, updated_at: DISMISSAL.dismissed_at }),
  },
});

export const restorePaymentOp = defineOperation({
  operationId: "restorePayment",
  method: "POST",
  path: "/payments/{id}/restore",
  summary: "Restore a dismissed payment",
  description:
    "Puts a dismissed payment back in the queue of unallocated payments (`status` from its allocations again, `dismissal` null). 409 `invalid_state` when it is not dismissed. No body, or `{}`. Event `payment.restored` (webhook `data.payment`).",
  tags,
  auth: "issuer",
  permission: "payments:write",
  idempotent: "required",
  params: ZIdParams,
  success: { status: 200, description: "Restored", schema: ZPayment, example: examplePayment({ updated_at: "2026-11-16T09:00:00.000Z" }) },
});

export const paymentOperations = [listPaymentsOp, recordPaymentOp, getPaymentOp, allocatePaymentOp, reverseAllocationOp, dismissPaymentOp, restorePaymentOp];
