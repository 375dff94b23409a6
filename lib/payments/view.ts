import { Prisma, type Payment } from "@/lib/generated/prisma/client";
import { sql, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { fromDate } from "@/lib/schemas/common";
import type { TPayment, TPaymentDismissalReason } from "@/lib/schemas/payments";

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
export type LoadPaymentInput = { organizationId: string; paymentId: string };

export async function loadPayment(tx: Tx, input: LoadPaymentInput): Promise<LoadedPayment> {
  return loadOne(tx, input, Prisma.empty);
}

// The same, with the payment's row locked until the transaction ends (SELECT ... FOR UPDATE
// OF p: the payment only, not the allocations or obligations read beside it).
export async function lockPayment(tx: Tx, input: LoadPaymentInput): Promise<LoadedPayment> {
  return loadOne(tx, input, Prisma.sql`FOR UPDATE OF p`);
}

async function loadOne(tx: Tx, input: LoadPaymentInput, tail: Prisma.Sql): Promise<LoadedPayment> {
  const { organizationId, paymentId } = input;
  if (!isUuid(paymentId)) throw notFoundPayment();
  const rows = await loadRaw(tx, Prisma.sql`p.organization_id = ${organizationId}::uuid AND p.id = ${paymentId}::uuid`, tail);
  if (rows.length !== 1) throw notFoundPayment();
  return rows[0];
}

// A page of payments, newest first with a stable order (created_at desc, id desc).
// `filter`: more conditions on `p` (lib/payments/payment-filter.ts), or none.
export type LoadPaymentPageInput = { organizationId: string; limit: number; offset: number; filter?: Prisma.Sql };

export async function loadPaymentPage(tx: Tx, input: LoadPaymentPageInput): Promise<LoadedPayment[]> {
  return loadRaw(
    tx,
    Prisma.sql`p.organization_id = ${input.organizationId}::uuid${input.filter ?? Prisma.empty}`,
    Prisma.sql`ORDER BY p.created_at DESC, p.id DESC LIMIT ${input.limit} OFFSET ${input.offset}`,
  );
}

// One statement for payments and their allocations (Prisma's include sends one query per
// relation); bigints travel as text inside the JSON.
async function loadRaw(tx: Tx, where: Prisma.Sql, tail: Prisma.Sql): Promise<LoadedPayment[]> {
  const q = Prisma.sql`
    SELECT p.id, p.organization_id AS "organizationId", p.amount_minor AS "amountMinor", p.allocated_minor AS "allocatedMinor", p.currency,
      p.direction, p.received_on AS "receivedOn", p.payer_name AS "payerName", p.reference, p.external_namespace AS "externalNamespace",
      p.external_id AS "externalId", p.note, p.created_at AS "createdAt", p.updated_at AS "updatedAt", p.dismissed_at AS "dismissedAt",
      p.dismissal_reason AS "dismissalReason", p.dismissal_note AS "dismissalNote",
      (SELECT coalesce(json_agg(json_build_object('id', a.id, 'organization_id', a.organization_id, 'payment_id', a.payment_id,
          'obligation_id', a.obligation_id, 'amount_minor', a.amount_minor::text, 'created_at', a.created_at, 'reference', o.reference,
          'reversed_at', a.reversed_at, 'reversal_reason', a.reversal_reason)
          ORDER BY a.created_at, a.id), '[]')
        FROM payment_allocations a JOIN obligations o ON o.organization_id = a.organization_id AND o.id = a.obligation_id
        WHERE a.organization_id = p.organization_id AND a.payment_id = p.id) AS j_allocations
    FROM payments p
    WHERE ${where}
    ${tail}`;
  const rows = await sql<Payment & { j_allocations: Record<string, string>[] }>(tx, q.text, q.values);
  return rows.map(({ j_allocations, ...p }) => ({
    ...p,
    allocations: j_allocations.map((a) => ({
      id: a.id,
      organizationId: a.organization_id,
      paymentId: a.payment_id,
      obligationId: a.obligation_id,
      amountMinor: BigInt(a.amount_minor),
      createdAt: new Date(a.created_at),
      reversedAt: a.reversed_at ? new Date(a.reversed_at) : null,
      reversalReason: a.reversal_reason,
      obligation: { reference: a.reference },
    })),
  }));
}

export function toAllocationItem(a: LoadedPayment["allocations"][number]) {
  return {
    id: a.id,
    obligation_id: a.obligationId,
    obligation_reference: a.obligation.reference,
    amount_minor: a.amountMinor.toString(),
    created_at: a.createdAt.toISOString(),
    reversed_at: a.reversedAt ? a.reversedAt.toISOString() : null,
    reversal_reason: a.reversalReason,
  };
}

// unallocated | partially_allocated | allocated by the live allocations; dismissed while set aside.
export function paymentStatus(p: Pick<LoadedPayment, "amountMinor" | "allocatedMinor" | "dismissedAt">): TPayment["status"] {
  if (p.dismissedAt) return "dismissed";
  if (p.allocatedMinor === 0n) return "unallocated";
  return p.allocatedMinor === p.amountMinor ? "allocated" : "partially_allocated";
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
    status: paymentStatus(p),
    dismissal: p.dismissedAt
      ? { reason: p.dismissalReason as TPaymentDismissalReason, note: p.dismissalNote, dismissed_at: p.dismissedAt.toISOString() }
      : null,
  };
}
