import { z } from "zod";
import { CURRENCIES, ZCurrency, ZDate, ZExternalReference, ZMinor, ZMinorOut, ZTimestamp, ZUuid, listEnvelope } from "@/lib/schemas/common";
import { ZCredit, ZExpectedVersion, ZMutationResult, ZObligationProjection } from "@/lib/schemas/obligations";

// Wire shapes of payments and allocations (docs/payments.md explains the choices behind them).

export const PAYMENT_DIRECTIONS = ["incoming", "outgoing"] as const;
export const ZPaymentDirection = z.enum(PAYMENT_DIRECTIONS).meta({
  description: "`incoming`: a credit on the organization's account (money received); `outgoing`: a debit (money paid)",
});

export const ZRecordPayment = z
  .strictObject({
    amount_minor: ZMinor,
    currency: ZCurrency,
    received_on: ZDate.meta({ description: "The date the payment was observed as received (UTC calendar date)" }),
    payer_name: z.string().max(500).optional().meta({ description: 'Who paid, as observed (default "")' }),
    reference: z.string().max(500).optional().meta({ description: 'The payment\'s own reference, e.g. the bank transfer remittance text (default "")' }),
    external_reference: ZExternalReference.optional().meta({
      description:
        "The payment's id in the system it was observed in (bank feed, PSP). Unique per organization: a second payment with the same namespace and id is 409 `duplicate` (retry with the same Idempotency-Key to get the stored response instead)",
    }),
    note: z.string().max(4000).optional().meta({ description: 'Free text (default "")' }),
    direction: ZPaymentDirection.optional().meta({
      description:
        "Default `incoming`. `incoming` (money received) is allocated to obligations where the organization is the creditor, `outgoing` (money paid) to those where it is the debtor",
    }),
  })
  .meta({ title: "RecordPayment" });
export type TRecordPayment = z.infer<typeof ZRecordPayment>;

export const REMAINDER_KINDS = ["bank_fee", "discount", "write_off"] as const;
export const ZSettleRemainder = z
  .strictObject({
    kind: z.enum(REMAINDER_KINDS).meta({ description: "The credit that settles the rest: `bank_fee`, `discount` or `write_off`" }),
    reason: z.string().trim().min(1).max(500).meta({ description: "Why the rest is not collected (1..500 characters)" }),
  })
  .meta({
    title: "SettleRemainder",
    description:
      "Short payments in one step: the obligation's outstanding rest after the allocation is credited (`obligation.credited`) in the same transaction. Nothing is credited when nothing is left.",
  });
export type TSettleRemainder = z.infer<typeof ZSettleRemainder>;

export const ZAllocatePayment = z
  .strictObject({
    obligation_id: ZUuid.meta({ description: "The obligation (of the same organization) the amount is allocated to" }),
    amount_minor: ZMinor.meta({
      description:
        "At most the payment's `unallocated_minor` and the obligation's outstanding amount (`amount_minor - allocated_minor`), else 422 `allocation_exceeds_remaining`",
    }),
    expected_version: ZExpectedVersion.meta({
      description: "The obligation's `version` the caller last saw; a stale value is 409 `version_conflict`",
      example: 1,
    }),
    settle_remainder: ZSettleRemainder.optional(),
  })
  .meta({ title: "AllocatePayment" });
export type TAllocatePayment = z.infer<typeof ZAllocatePayment>;

export const ZPaymentAllocationItem = z
  .strictObject({
    id: ZUuid,
    obligation_id: ZUuid,
    obligation_reference: z.string().meta({ description: "The obligation's correlation reference, e.g. OBL-7K3M9Q2X4B" }),
    amount_minor: ZMinor,
    created_at: ZTimestamp,
    reversed_at: ZTimestamp.nullable().meta({
      description: "When the allocation was reversed (POST /payments/{id}/allocations/{allocation}/reverse); `null` while it counts",
    }),
    reversal_reason: z.string().meta({ description: 'Why it was reversed ("" while it counts)' }),
  })
  .meta({ title: "PaymentAllocationItem" });

export const DISMISSAL_REASONS = ["bank_fee", "internal_transfer", "refund", "not_receivable", "other"] as const;
export const ZPaymentDismissalReason = z.enum(DISMISSAL_REASONS).meta({
  description: "Why the payment is not a receivable: `bank_fee`, `internal_transfer`, `refund`, `not_receivable` or `other`",
});
export type TPaymentDismissalReason = z.infer<typeof ZPaymentDismissalReason>;

export const PAYMENT_STATUSES = ["unallocated", "partially_allocated", "allocated", "dismissed"] as const;

export const ZPayment = z
  .strictObject({
    id: ZUuid,
    organization_id: ZUuid,
    amount_minor: ZMinor,
    currency: z.enum(CURRENCIES),
    direction: ZPaymentDirection,
    received_on: ZDate,
    payer_name: z.string(),
    reference: z.string(),
    external_reference: ZExternalReference.nullable().meta({ description: "`{ namespace, id }` as recorded, or `null` when none was given" }),
    note: z.string(),
    allocated_minor: ZMinorOut.meta({ description: "Sum of the accepted allocations" }),
    unallocated_minor: ZMinorOut.meta({ description: "What is left to allocate: `amount_minor - allocated_minor`" }),
    allocations: z.array(ZPaymentAllocationItem).meta({ description: "Every accepted allocation of this payment, oldest first" }),
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
    status: z.enum(PAYMENT_STATUSES).meta({
      description:
        '`unallocated` (nothing allocated), `partially_allocated`, `allocated` (`unallocated_minor` "0"), or `dismissed` (set aside as not a receivable: out of the queue of unallocated payments until restored)',
    }),
    dismissal: z
      .strictObject({ reason: ZPaymentDismissalReason, note: z.string(), dismissed_at: ZTimestamp })
      .nullable()
      .meta({ description: "Why and when the payment was dismissed; `null` unless `status` is `dismissed`" }),
  })
  .meta({ title: "Payment" });
export type TPayment = z.infer<typeof ZPayment>;

export const ZPaymentList = listEnvelope(ZPayment).meta({ title: "PaymentList" });

export const ZPaymentAllocation = ZPaymentAllocationItem.extend({ payment_id: ZUuid }).meta({ title: "PaymentAllocation" });

export const ZPaymentAllocationResult = ZMutationResult.extend({
  allocation: ZPaymentAllocation.meta({ description: "The allocation just accepted" }),
  payment: ZPayment.meta({ description: "The payment after the allocation (its `unallocated_minor` shows what is left)" }),
  obligation: ZObligationProjection.meta({ description: "The obligation after the allocation: new `allocated_minor`, `status` and `version`" }),
  credit: ZCredit.optional().meta({ description: "With `settle_remainder`: the credit that settled the obligation's rest (absent when nothing was left)" }),
}).meta({ title: "PaymentAllocationResult" });
export type TPaymentAllocationResult = z.infer<typeof ZPaymentAllocationResult>;

export const ZPaymentAllocationParams = z.strictObject({ id: ZUuid, allocation: ZUuid });

export const ZReverseEntry = z
  .strictObject({
    expected_version: ZExpectedVersion.meta({
      description: "The obligation's `version` the caller last saw; a stale value is 409 `version_conflict`",
      example: 2,
    }),
    reason: z.string().trim().min(1).max(500).meta({ description: "Why the entry is reversed (1..500 characters), kept in the history" }),
  })
  .meta({ title: "ReverseEntry" });
export type TReverseEntry = z.infer<typeof ZReverseEntry>;

export const ZDismissPayment = z
  .strictObject({
    reason: ZPaymentDismissalReason,
    note: z.string().max(4000).optional().meta({ description: 'Free text (default "")' }),
  })
  .meta({ title: "DismissPayment" });
export type TDismissPayment = z.infer<typeof ZDismissPayment>;
