import type { Tx } from "@/lib/db/client";

export type UnallocatedTotal = { currency: string; count: number; unallocated_minor: string };

// What is left to allocate of the organization's recorded payments, by currency (only
// currencies with something left; dismissed payments are not receivables and left out).
// Summed in the database.
export type SummarizeUnallocatedPaymentsInput = { organizationId: string };

export async function summarizeUnallocatedPayments(tx: Tx, input: SummarizeUnallocatedPaymentsInput): Promise<UnallocatedTotal[]> {
  const { organizationId } = input;
  const rows = await tx.payment.groupBy({
    by: ["currency"],
    where: { organizationId, dismissedAt: null },
    _sum: { amountMinor: true, allocatedMinor: true },
  });
  const counts = await tx.payment.groupBy({
    by: ["currency"],
    where: { organizationId, dismissedAt: null, NOT: { allocatedMinor: { equals: tx.payment.fields.amountMinor } } },
    _count: { _all: true },
  });
  const countOf = new Map(counts.map((c) => [c.currency, c._count._all]));
  return rows
    .map((r) => ({
      currency: r.currency,
      count: countOf.get(r.currency) ?? 0,
      unallocated_minor: ((r._sum.amountMinor ?? 0n) - (r._sum.allocatedMinor ?? 0n)).toString(),
    }))
    .filter((r) => r.unallocated_minor !== "0")
    .sort((a, b) => (a.currency < b.currency ? -1 : 1));
}
