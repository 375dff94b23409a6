import type { Tx } from "@/lib/db/client";
import { counterpartyKey } from "@/lib/counterparties/counterparty-key";
import { toDisputeView, toPromiseView } from "@/lib/obligations/view";

// The current dispute and promise of each of a counterparty's obligations that has one (open
// or decided, paid or not), newest first: the dashboard's counterparty page shows them as the
// obligation page does. Reads only the obligations that were ever disputed or promised and
// keeps those whose grouping key is the counterparty's (lib/counterparties/counterparty-key.ts).
export async function listCounterpartyDisputes(tx: Tx, input: { organizationId: string; counterpartyId: string }) {
  const rows = await tx.obligation.findMany({
    where: {
      organizationId: input.organizationId,
      organizationRole: "creditor",
      OR: [{ disputeStatus: { not: null } }, { promiseStatus: { not: null } }],
    },
    select: {
      id: true,
      reference: true,
      invoiceNumber: true,
      currency: true,
      status: true,
      debtorEmail: true,
      debtorName: true,
      updatedAt: true,
      disputeStatus: true,
      disputeReason: true,
      disputeMessage: true,
      disputeAmountMinor: true,
      disputeOpenedAt: true,
      disputeResolvedAt: true,
      disputeResolutionMessage: true,
      promiseStatus: true,
      promiseDate: true,
      promiseAmountMinor: true,
      promiseBaselineMinor: true,
      promiseMadeAt: true,
      promiseDecidedAt: true,
    },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
  });
  const id = input.counterpartyId.toLowerCase();
  return rows
    .filter((r) => counterpartyKey(input.organizationId, r.debtorEmail, r.debtorName)?.id === id)
    .map((r) => ({
      id: r.id,
      reference: r.reference,
      invoice_number: r.invoiceNumber,
      currency: r.currency,
      status: r.status,
      dispute: toDisputeView(r),
      promise: toPromiseView(r),
    }));
}
