import type { Tx } from "@/lib/db/client";
import type { TBankStatementDetail } from "@/lib/schemas/reconciliation";
import { loadStatement, toBalanceView, toItemView, toStatementView } from "@/lib/reconciliation/view";

export type GetBankStatementInput = { organizationId: string; id: string };

// GET /bank-statements/{id}: the import, its balances and its items in file order, each with
// its payment's allocation now (404 for another organization's import).
export async function getBankStatement(tx: Tx, input: GetBankStatementInput): Promise<TBankStatementDetail> {
  const s = await loadStatement(tx, input);
  const items = await tx.bankStatementItem.findMany({ where: { organizationId: input.organizationId, statementId: s.id }, orderBy: { position: "asc" } });
  const ids = items.flatMap((i) => (i.paymentId ? [i.paymentId] : []));
  const payments = ids.length
    ? await tx.payment.findMany({
        where: { organizationId: input.organizationId, id: { in: ids } },
        select: { id: true, amountMinor: true, allocatedMinor: true },
      })
    : [];
  const state = new Map(
    payments.map((p) => [p.id, p.allocatedMinor >= p.amountMinor ? "allocated" : p.allocatedMinor > 0n ? "partially_allocated" : "unallocated"] as const),
  );
  const currency = s.accountCurrency;
  return {
    ...toStatementView(s),
    balances: {
      opening: toBalanceView(s.openingBalanceMinor, s.openingBalanceOn, currency),
      closing: toBalanceView(s.closingBalanceMinor, s.closingBalanceOn, currency),
    },
    items: items.map((i) => toItemView(i, i.paymentId ? (state.get(i.paymentId) ?? null) : null)),
  };
}
