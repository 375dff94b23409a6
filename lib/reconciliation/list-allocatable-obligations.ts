import type { Tx } from "@/lib/db/client";

export type AllocatableObligation = {
  id: string;
  reference: string;
  payment_reference: string;
  invoice_number: string;
  counterparty: string;
  outstanding_minor: string;
  deadline: string;
  version: number;
};

export type ListAllocatableObligationsInput = {
  organizationId: string;
  currency: string;
  direction: "incoming" | "outgoing";
  // listed first (e.g. the obligations of the payment's suggestions), when still open
  preferIds?: string[];
  limit?: number;
};

// Obligations a payment can be allocated to by hand: open (something outstanding), in the
// payment's currency and on its side (incoming -> where the organization is the creditor,
// outgoing -> the debtor), earliest deadline first; the preferred ones first.
export async function listAllocatableObligations(tx: Tx, input: ListAllocatableObligationsInput): Promise<AllocatableObligation[]> {
  const limit = Math.min(Math.max(input.limit ?? 100, 1), 500);
  const where = {
    organizationId: input.organizationId,
    currency: input.currency,
    organizationRole: input.direction === "incoming" ? "creditor" : "debtor",
    status: { not: "RECONCILED" },
  };
  const select = {
    id: true,
    reference: true,
    paymentReference: true,
    organizationRole: true,
    debtorName: true,
    creditorName: true,
    invoiceNumber: true,
    amountMinor: true,
    allocatedMinor: true,
    deadline: true,
    version: true,
  } as const;
  const preferred = input.preferIds?.length ? await tx.obligation.findMany({ where: { ...where, id: { in: input.preferIds } }, select }) : [];
  const rest = await tx.obligation.findMany({
    where: { ...where, id: { notIn: preferred.map((o) => o.id) } },
    orderBy: [{ deadline: "asc" }, { id: "asc" }],
    take: limit,
    select,
  });
  const order = new Map((input.preferIds ?? []).map((id, i) => [id, i]));
  preferred.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return [...preferred, ...rest]
    .filter((o) => o.amountMinor > o.allocatedMinor)
    .slice(0, limit)
    .map((o) => ({
      id: o.id,
      reference: o.reference,
      payment_reference: o.paymentReference,
      invoice_number: o.invoiceNumber,
      counterparty: o.organizationRole === "creditor" ? o.debtorName : o.creditorName,
      outstanding_minor: (o.amountMinor - o.allocatedMinor).toString(),
      deadline: o.deadline.toISOString().slice(0, 10),
      version: o.version,
    }));
}
