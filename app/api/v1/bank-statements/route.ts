import { handle } from "@/lib/http/handle";
import { importBankStatementOp, listBankStatementsOp } from "@/lib/operations/reconciliation";
import { importBankStatement } from "@/lib/reconciliation/import-bank-statement";
import { listBankStatements } from "@/lib/reconciliation/list-bank-statements";
import { notServed } from "@/lib/http/not-served";

// POST /bank-statements – import a statement: one payment per booked transaction, matched
export const POST = handle(importBankStatementOp, async ({ tx, principal, body, files }) => ({
  status: 201,
  body: await importBankStatement(tx, { organizationId: principal.organizationId, principal, body, files }),
}));

// GET /bank-statements – imports, newest first
export const GET = handle(listBankStatementsOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await listBankStatements(tx, { organizationId: principal.organizationId, ...query }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { PUT, PATCH, DELETE } = notServed("GET", "POST");
