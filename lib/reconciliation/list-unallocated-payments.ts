import type { Tx } from "@/lib/db/client";
import { PAYMENT_INCLUDE, toPaymentView } from "@/lib/payments/view";
import type { TPayment } from "@/lib/schemas/payments";
import { attachMemory, findCandidates } from "@/lib/reconciliation/candidates";
import { loadSettingsRow, toEngineSettings } from "@/lib/reconciliation/view";
import { suggest, type Suggestion } from "@/lib/reconciliation/engine";
import { toFacts } from "@/lib/reconciliation/payment-facts";

// The most recent payments with something left to allocate that one page looks at: the
// suggestions of all of them are computed with one candidate look-up per signal, so the
// "needs a person" filter is exact within this window and the page stays fast however many
// old unallocated payments an organization carries.
export const UNALLOCATED_WINDOW = 200;

export type UnallocatedFilter = "needs_person" | "all";

export type ListUnallocatedPaymentsInput = { organizationId: string; filter: UnallocatedFilter; limit: number; offset: number };

export type UnallocatedPayment = { payment: TPayment; best: Suggestion | null; suggestions: number };

export type UnallocatedPaymentList = {
  items: UnallocatedPayment[];
  limit: number;
  offset: number;
  total: number; // after the filter, within the window
  window_full: boolean; // more unallocated payments exist than the window holds
};

// Unallocated (or partly allocated) payments of the organization, newest first, each with
// its best suggestion. "needs_person": those without an `exact` suggestion (an exact one
// can be accepted without reading anything else).
export async function listUnallocatedPayments(tx: Tx, input: ListUnallocatedPaymentsInput): Promise<UnallocatedPaymentList> {
  const rows = await tx.payment.findMany({
    where: { organizationId: input.organizationId, allocatedMinor: { lt: tx.payment.fields.amountMinor }, dismissedAt: null },
    include: PAYMENT_INCLUDE,
    orderBy: [{ receivedOn: "desc" }, { createdAt: "desc" }, { id: "desc" }],
    take: UNALLOCATED_WINDOW + 1,
  });
  const windowFull = rows.length > UNALLOCATED_WINDOW;
  const payments = rows.slice(0, UNALLOCATED_WINDOW);
  const items = payments.length
    ? await tx.bankStatementItem.findMany({
        where: { organizationId: input.organizationId, paymentId: { in: payments.map((p) => p.id) } },
        select: { paymentId: true, remittance: true },
      })
    : [];
  const remittance = new Map(items.map((i) => [i.paymentId, i.remittance]));
  const facts = payments.map((p) => toFacts(p, remittance.get(p.id) ?? ""));
  // As GET /payments/{id}/suggestions: the tolerance, the payers' aliases, no rejected sets.
  const settings = toEngineSettings(await loadSettingsRow(tx, { organizationId: input.organizationId }));
  await attachMemory(tx, { organizationId: input.organizationId, payments: facts, withRejections: true });
  const candidates = await findCandidates(tx, { organizationId: input.organizationId, payments: facts });
  const all = payments.map((p, i) => {
    const s = suggest(facts[i], candidates.get(p.id) ?? [], settings);
    return { payment: toPaymentView(p), best: s[0] ?? null, suggestions: s.length };
  });
  const filtered = input.filter === "all" ? all : all.filter((x) => x.best?.confidence !== "exact");
  return {
    items: filtered.slice(input.offset, input.offset + input.limit),
    limit: input.limit,
    offset: input.offset,
    total: filtered.length,
    window_full: windowFull,
  };
}
