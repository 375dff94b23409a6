import { handle } from "@/lib/http/handle";
import { getBankStatementOp } from "@/lib/operations/reconciliation";
import { getBankStatement } from "@/lib/reconciliation/get-bank-statement";
import { notServed } from "@/lib/http/not-served";

// GET /bank-statements/{id} – the import with one item per transaction
export const GET = handle(getBankStatementOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await getBankStatement(tx, { organizationId: principal.organizationId, id: params.id }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
