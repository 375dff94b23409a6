import type { Tx } from "@/lib/db/client";
import type { TBankStatement } from "@/lib/schemas/reconciliation";
import { toStatementView } from "@/lib/reconciliation/view";

export type ListBankStatementsInput = { organizationId: string; limit: number; offset: number };

// GET /bank-statements: newest first, stable order (created_at desc, id desc).
export async function listBankStatements(tx: Tx, input: ListBankStatementsInput): Promise<{ items: TBankStatement[]; limit: number; offset: number }> {
  const rows = await tx.bankStatement.findMany({
    where: { organizationId: input.organizationId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit,
    skip: input.offset,
  });
  return { items: rows.map(toStatementView), limit: input.limit, offset: input.offset };
}
