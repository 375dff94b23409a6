import type { Tx } from "@/lib/db/client";
import { groupCounterparties } from "@/lib/counterparties/group-counterparties";

// The payments received from a counterparty: those with a live allocation to one of its
// obligations, newest first, with what they settled of its obligations (the dashboard's
// counterparty page).
export async function listCounterpartyPayments(tx: Tx, input: { organizationId: string; counterpartyId: string; limit?: number }) {
  const [g] = await groupCounterparties(tx, { organizationId: input.organizationId, only: input.counterpartyId });
  if (!g || g.obligationIds.length === 0) return [];
  const rows = await tx.paymentAllocation.findMany({
    where: { organizationId: input.organizationId, obligationId: { in: g.obligationIds }, reversedAt: null },
    select: { amountMinor: true, payment: { select: { id: true, amountMinor: true, currency: true, receivedOn: true, payerName: true, reference: true } } },
    orderBy: { createdAt: "desc" },
  });
  const byPayment = new Map<
    string,
    { id: string; amount_minor: string; currency: string; received_on: string; payer_name: string; reference: string; settled: bigint }
  >();
  for (const r of rows) {
    const p = r.payment;
    const e = byPayment.get(p.id) ?? {
      id: p.id,
      amount_minor: p.amountMinor.toString(),
      currency: p.currency,
      received_on: p.receivedOn.toISOString().slice(0, 10),
      payer_name: p.payerName,
      reference: p.reference,
      settled: 0n,
    };
    e.settled += r.amountMinor;
    byPayment.set(p.id, e);
  }
  return [...byPayment.values()]
    .sort((a, b) => (a.received_on < b.received_on ? 1 : a.received_on > b.received_on ? -1 : 0))
    .slice(0, input.limit ?? 50)
    .map(({ settled, ...p }) => ({ ...p, settled_minor: settled.toString() }));
}
