import type { Tx } from "@/lib/db";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { recordEvent } from "@/lib/events/record-event";
import { toDate } from "@/lib/schemas/common";
import type { TPayment, TRecordPayment } from "@/lib/schemas/payments";
import { loadPayment, toPaymentView } from "@/lib/payments/view";

// POST /payments: records an observed payment (never a movement of money) and the
// `payment.recorded` event in the caller's transaction.
//
// The external reference (namespace + id) is unique per organization, enforced by the
// unique constraint (organization_id, external_namespace, external_id): the insert is
// ON CONFLICT DO NOTHING, so a concurrent twin waits for the first one's commit and then
// sees it, and the refusal can name the existing payment (409 `duplicate`). Retries of
// the same request use the same Idempotency-Key and get the stored 201 instead.
export type RecordPaymentInput = { organizationId: string; principal: Principal; body: TRecordPayment };

export async function recordPayment(tx: Tx, input: RecordPaymentInput): Promise<TPayment> {
  const { organizationId, body } = input;
  const id = newId();
  const now = new Date();
  const ext = body.external_reference;
  const created = await tx.payment.createMany({
    data: [
      {
        id,
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
      },
    ],
    skipDuplicates: true,
  });
  if (created.count !== 1) {
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

  const payment = toPaymentView(await loadPayment(tx, { organizationId, paymentId: id }));
  await recordEvent(tx, {
    organizationId,
    type: "payment.recorded",
    principal: input.principal,
    paymentId: id,
    data: { payment },
  });
  return payment;
}
