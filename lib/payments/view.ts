import type { Prisma } from "@/lib/generated/prisma/client";
import { type Expression, type InferResult, type SqlBool, sql as raw } from "kysely";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import type { Tx } from "@/lib/db/client";
import { type Query, query, statement } from "@/lib/db/query";
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

// Payments (`p`) of the organization `org` with their allocations in one statement (Prisma's
// include sends one query per relation): the allocations a JSON array, oldest first, their
// bigint as text. The allocations name the organization itself, not through `p`: so Citus
// routes the statement to one shard, which it wants for the locking read (lockPayment).
// The caller still adds `p.organization_id = org`.
export function selectPayments(q: Query, org: string) {
  return q.selectFrom("payments as p").select((eb) => [
    "p.id",
    "p.organization_id as organizationId",
    "p.amount_minor as amountMinor",
    "p.allocated_minor as allocatedMinor",
    "p.currency",
    "p.direction",
    "p.received_on as receivedOn",
    "p.payer_name as payerName",
    "p.reference",
    "p.external_namespace as externalNamespace",
    "p.external_id as externalId",
    "p.note",
    "p.created_at as createdAt",
    "p.updated_at as updatedAt",
    "p.dismissed_at as dismissedAt",
    "p.dismissal_reason as dismissalReason",
    "p.dismissal_note as dismissalNote",
    jsonArrayFrom(
      eb
        .selectFrom("payment_allocations as a")
        .innerJoin("obligations as o", (j) => j.onRef("o.organization_id", "=", "a.organization_id").onRef("o.id", "=", "a.obligation_id"))
        .select([
          "a.id",
          "a.organization_id as organizationId",
          "a.payment_id as paymentId",
          "a.obligation_id as obligationId",
          raw<string>`a.amount_minor::text`.as("amountMinor"),
          "a.created_at as createdAt",
          "a.reversed_at as reversedAt",
          "a.reversal_reason as reversalReason",
          "o.reference",
        ])
        .where("a.organization_id", "=", org)
        .whereRef("a.payment_id", "=", "p.id")
        .orderBy("a.created_at")
        .orderBy("a.id"),
    ).as("allocations"),
  ]);
}

type PaymentRow = InferResult<ReturnType<typeof selectPayments>>[number];

// The JSON elements back to the loaded shape (their bigint and dates travel as text).
export function toLoadedPayment({ allocations, ...p }: PaymentRow): LoadedPayment {
  return {
    ...p,
    allocations: allocations.map(({ reference, ...a }) => ({
      ...a,
      amountMinor: BigInt(a.amountMinor),
      createdAt: new Date(a.createdAt),
      reversedAt: a.reversedAt === null ? null : new Date(a.reversedAt),
      obligation: { reference },
    })),
  };
}

// 404 not_found when unknown, malformed or of another organization.
export type LoadPaymentInput = { organizationId: string; paymentId: string };

type ById = { org: string; id: string };
const byId = statement((q, p: ById) => selectPayments(q, p.org).where("p.organization_id", "=", p.org).where("p.id", "=", p.id));
// The same, with the payment's row locked until the transaction ends (FOR UPDATE OF p: the
// payment only, not the allocations or obligations read beside it).
const lockedById = statement((q, p: ById) => selectPayments(q, p.org).where("p.organization_id", "=", p.org).where("p.id", "=", p.id).forUpdate("p"));

export async function loadPayment(tx: Tx, input: LoadPaymentInput): Promise<LoadedPayment> {
  if (!isUuid(input.paymentId)) throw notFoundPayment();
  return one(await byId.rows(tx, { org: input.organizationId, id: input.paymentId }));
}

export async function lockPayment(tx: Tx, input: LoadPaymentInput): Promise<LoadedPayment> {
  if (!isUuid(input.paymentId)) throw notFoundPayment();
  return one(await lockedById.rows(tx, { org: input.organizationId, id: input.paymentId }));
}

function one(rows: PaymentRow[]): LoadedPayment {
  if (rows.length !== 1) throw notFoundPayment();
  return toLoadedPayment(rows[0]);
}

// A page of payments, newest first with a stable order (created_at desc, id desc).
// `filter`: a condition on `p` (lib/payments/payment-filter.ts), or none. Built per call:
// its shape depends on the filter, and the list is no registration hot path.
export type LoadPaymentPageInput = { organizationId: string; limit: number; offset: number; filter?: Expression<SqlBool> };

export async function loadPaymentPage(tx: Tx, input: LoadPaymentPageInput): Promise<LoadedPayment[]> {
  const rows = await selectPayments(query(tx), input.organizationId)
    .where("p.organization_id", "=", input.organizationId)
    .$if(input.filter !== undefined, (s) => s.where(input.filter as Expression<SqlBool>))
    .orderBy("p.created_at", "desc")
    .orderBy("p.id", "desc")
    .limit(input.limit)
    .offset(input.offset)
    .execute();
  return rows.map(toLoadedPayment);
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
