import { handle } from "@/lib/http/handle";
import { importBankStatementOp, listBankStatementsOp } from "@/lib/operations/reconciliation";
import { importBankStatement } from "@/lib/reconciliation/import-bank-statement";
import { prepareBankStatementImport } from "@/lib/reconciliation/prepare-bank-statement-import";
import type { ParsedStatement } from "@/lib/bank-statements/types";
import type { TImportStatementForm } from "@/lib/schemas/reconciliation";
import { listBankStatements } from "@/lib/reconciliation/list-bank-statements";
import { notServed } from "@/lib/http/not-served";

// POST /bank-statements – import a statement: one payment per booked transaction, matched
// (the file is parsed in a parse worker before the transaction opens)
export const POST = handle(
  importBankStatementOp,
  async ({ tx, principal, body, files, prepared }) => ({
    status: 201,
    body: await importBankStatement(tx, { organizationId: principal.organizationId, principal, body, files, parsed: prepared as ParsedStatement }),
  }),
  { beforeTransaction: (body, { files }) => prepareBankStatementImport(body as TImportStatementForm, files) },
);

// GET /bank-statements – imports, newest first
export const GET = handle(listBankStatementsOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await listBankStatements(tx, { organizationId: principal.organizationId, ...query }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { PUT, PATCH, DELETE } = notServed("GET", "POST");
