import { handle } from "@/lib/http/handle";
import { listAuditTrailOp } from "@/lib/operations/obligations";
import { listAuditTrail } from "@/lib/obligations/list-audit-trail";
import { notServed } from "@/lib/http/not-served";

// GET /obligations/{id}/audit-trail – the whole audit trail, newest first, a page at a time
export const GET = handle(listAuditTrailOp, async ({ tx, principal, params, query }) => ({
  status: 200,
  body: await listAuditTrail(tx, { organizationId: principal.organizationId, obligationId: params.id, ...query }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
