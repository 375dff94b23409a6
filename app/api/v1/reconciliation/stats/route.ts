import { handle } from "@/lib/http/handle";
import { getReconciliationStatsOp } from "@/lib/operations/reconciliation";
import { getReconciliationStats } from "@/lib/reconciliation/get-reconciliation-stats";
import { notServed } from "@/lib/http/not-served";

// GET /reconciliation/stats – touchless and one-click figures of imported transactions
export const GET = handle(getReconciliationStatsOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await getReconciliationStats(tx, { organizationId: principal.organizationId, query }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { HEAD, POST, PUT, PATCH, DELETE } = notServed("GET");
