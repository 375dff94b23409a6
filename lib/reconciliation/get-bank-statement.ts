import type { Tx } from "@/lib/db";
import type { TBankStatementDetail } from "@/lib/schemas/reconciliation";
import { loadStatement, toItemView, toStatementView } from "@/lib/reconciliation/view";

export type GetBankStatementInput = { organizationId: string; id: string };

// GET /bank-statements/{id}: the import and its items in file order (404 for another
// organization's import).
export async function getBankStatement(tx: Tx, input: GetBankStatementInput): Promise<TBankStatementDetail> {
  const s = await loadStatement(tx, input);
  const items = await tx.bankStatementItem.findMany({ where: { organizationId: input.organizationId, statementId: s.id }, orderBy: { position: "asc" } });
  return { ...toStatementView(s), items: items.map(toItemView) };
}
