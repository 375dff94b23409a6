import type { Tx } from "@/lib/db/client";
import { statement } from "@/lib/db/query";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { recordEvent } from "@/lib/events/record-event";
import { fromDate, toDate } from "@/lib/schemas/common";
import type { TPayment, TRecordPayment } from "@/lib/schemas/payments";
import { type LoadedPayment, toPaymentView } from "@/lib/payments/view";

// POST /payments: records an observed payment (never a movement of money) and the
// `payment.recorded` event in the caller's transaction.
//
// The external reference (namespace + id) is unique per organization, enforced by the
// unique constraint (organization_id, external_namespace, external_id): the insert is
// ON CONFLICT DO NOTHING, so a concurrent twin waits for the first one's commit and then
// sees it, and the refusal can name the existing payment (409 `duplicate`). Retries of
// the same request use the same Idempotency-Key and get the stored 201 instead.
export type RecordPaymentInput = { organizationId: string; principal: Principal; body: TRecordPayment };

// One INSERT straight to the transaction's connection, and the wire object built from the
// row it wrote (a new payment has no allocations): no re-read, no ORM in between (Prisma's
// createMany cost this request more CPU than a registration; docs/benchmarks.md, step 19).
type PaymentValues = {
  id: string;
  org: string;
  amount: bigint;
  currency: string;
  direction: string;
  receivedOn: string;
  payerName: string;
  reference: string;
  externalNamespace: string | null;
  externalId: string | null;
  note: string;
  at: Date;
};
const insertPayment = statement((q, p: PaymentValues) =>
  q
    .insertInto("payments")
    .values({
      id: p.id,
      organization_id: p.org,
      amount_minor: p.amount,
      allocated_minor: 0n,
      currency: p.currency,
      direction: p.direction,
      received_on: p.receivedOn,
      payer_name: p.payerName,
      reference: p.reference,
      external_namespace: p.externalNamespace,
      external_id: p.externalId,
      note: p.note,
      created_at: p.at,
      updated_at: p.at,
    })
    .onConflict((c) => c.doNothing()),
);

export async function recordPayment(tx: Tx, input: RecordPaymentInput): Promise<TPayment> {
  const { organizationId, body } = input;
  const ext = body.external_reference;
  const now = new Date();
  const row: LoadedPayment = {
    id: newId(),
    organizationId,
    amountMinor: BigInt(body.amount_minor),
    allocatedMinor: 0n,
    currency: body.currency,
    direction: body.direction ?? "incoming",
    receivedOn: toDate(body.received_on),
    payerName: body.payer_name ?? "",
    reference: body.reference ?? "",
    externalNamespace: ext?.namespace ?? null,
    externalId: ext?.id ?? null,
    note: body.note ?? "",
    createdAt: now,
    updatedAt: now,
    dismissedAt: null,
    dismissalReason: "",
    dismissalNote: "",
    allocations: [],
  };
  const inserted = await insertPayment.count(tx, {
    id: row.id,
    org: organizationId,
    amount: row.amountMinor,
    currency: row.currency,
    direction: row.direction,
    receivedOn: fromDate(row.receivedOn),
    payerName: row.payerName,
    reference: row.reference,
    externalNamespace: row.externalNamespace,
    externalId: row.externalId,
    note: row.note,
    at: now,
  });
  if (inserted !== 1) {
    const existing = ext
      ? await tx.payment.findFirst({ where: { organizationId, externalNamespace: ext.namespace, externalId: ext.id }, select: { id: true } })
      : null;
    throw new AppError(
      "duplicate",
      existing && ext
        ? `a payment with external_reference ${ext.namespace}/${ext.id} is already recorded: ${existing.id}`
        : "a payment with these identifiers is already recorded",
    );
  }

  const payment = toPaymentView(row);
  await recordEvent(tx, {
    organizationId,
    type: "payment.recorded",
    principal: input.principal,
    paymentId: row.id,
    data: { payment },
  });
  return payment;
}
