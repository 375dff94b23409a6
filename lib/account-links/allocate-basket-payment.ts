import type { Tx } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { allocatePayment } from "@/lib/payments/allocate-payment";
import { findRfReferences } from "@/lib/payment-references/rf";
import type { TPayment } from "@/lib/schemas/payments";

// An incoming payment whose remittance holds a basket's RF reference (in the payment's
// currency) is allocated across the basket's obligations in item order, each up to its item
// amount and its outstanding amount: a smaller payment fills the items in order, a larger
// one leaves the rest unallocated. Each allocation goes through allocatePayment (its locks,
// version check and `payment.allocated` event). Returns the payment after the last
// allocation, or undefined when no basket is named or nothing could be allocated.
export type AllocateBasketPaymentInput = { organizationId: string; principal: Principal; paymentId: string; remittance: string };

export async function allocateBasketPayment(tx: Tx, input: AllocateBasketPaymentInput): Promise<TPayment | undefined> {
  const refs = findRfReferences(input.remittance).filter((r) => r.slice(4, 7) === "BSK");
  if (refs.length === 0) return undefined;
  const { organizationId } = input;
  const payment = await tx.payment.findFirst({
    where: { id: input.paymentId, organizationId },
    select: { currency: true, direction: true, amountMinor: true, allocatedMinor: true },
  });
  if (payment?.direction !== "incoming") return undefined;
  const basket = await tx.basket.findFirst({ where: { organizationId, paymentReference: { in: refs }, currency: payment.currency }, select: { id: true } });
  if (!basket) return undefined;
  const items = await tx.basketItem.findMany({ where: { organizationId, basketId: basket.id }, orderBy: { position: "asc" } });
  let left = payment.amountMinor - payment.allocatedMinor;
  let last: TPayment | undefined;
  for (const item of items) {
    if (left <= 0n) break;
    const o = await tx.obligation.findFirst({
      where: { id: item.obligationId, organizationId, currency: payment.currency, status: { not: "RECONCILED" }, cancelledAt: null },
      select: { version: true, amountMinor: true, allocatedMinor: true },
    });
    if (!o) continue;
    const outstanding = o.amountMinor - o.allocatedMinor;
    // the smallest of the three (bigint: no Math.min)
    const amount = [item.amountMinor, outstanding, left].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[0];
    if (amount <= 0n) continue;
    const r = await allocatePayment(tx, {
      organizationId,
      paymentId: input.paymentId,
      principal: input.principal,
      body: { obligation_id: item.obligationId, amount_minor: amount.toString(), expected_version: o.version },
    });
    left -= amount;
    last = r.payment;
  }
  return last;
}
