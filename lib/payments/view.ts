import type { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { fromDate } from "@/lib/schemas/common";
import type { TPayment } from "@/lib/schemas/payments";

// Read side of payments: loading one (or a page) with its allocations, and the wire
// object (lib/schemas/payments.ts ZPayment).

export const PAYMENT_INCLUDE = {
  allocations: {
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    include: { obligation: { select: { reference: true } } },
  },
} satisfies Prisma.PaymentInclude;

export type LoadedPayment = Prisma.PaymentGetPayload<{ include: typeof PAYMENT_INCLUDE }>;

export const notFoundPayment = () => new AppError("not_found", "payment not found");

// 404 not_found when unknown, malformed or of another organization.
export async function loadPayment(tx: Tx, organizationId: string, paymentId: string): Promise<LoadedPayment> {
  if (!isUuid(paymentId)) throw notFoundPayment();
  const row = await tx.payment.findFirst({ where: { id: paymentId, organizationId }, include: PAYMENT_INCLUDE });
  if (!row) throw notFoundPayment();
  return row;
}

// A page of payments, newest first with a stable order (created_at desc, id desc).
export async function loadPaymentPage(tx: Tx, organizationId: string, page: { limit: number; offset: number }): Promise<LoadedPayment[]> {
  return tx.payment.findMany({
    where: { organizationId },
    include: PAYMENT_INCLUDE,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.limit,
    skip: page.offset,
  });
}

export function toAllocationItem(a: LoadedPayment["allocations"][number]) {
  return {
    id: a.id,
    obligation_id: a.obligationId,
    obligation_reference: a.obligation.reference,
    amount_minor: a.amountMinor.toString(),
    created_at: a.createdAt.toISOString(),
  };
}

export function toPaymentView(p: LoadedPayment): TPayment {
  return {
    id: p.id,
    organization_id: p.organizationId,
    amount_minor: p.amountMinor.toString(),
    currency: p.currency as TPayment["currency"],
    direction: p.direction as TPayment["direction"],
    received_on: fromDate(p.receivedOn),
    payer_name: p.payerName,
    reference: p.reference,
    external_reference: p.externalNamespace !== null && p.externalId !== null ? { namespace: p.externalNamespace, id: p.externalId } : null,
    note: p.note,
    allocated_minor: p.allocatedMinor.toString(),
    unallocated_minor: (p.amountMinor - p.allocatedMinor).toString(),
    allocations: p.allocations.map(toAllocationItem),
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}
