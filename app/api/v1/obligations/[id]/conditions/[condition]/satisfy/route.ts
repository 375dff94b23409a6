import { handle } from "@/lib/http/handle";
import { satisfyConditionOp } from "@/lib/operations/obligations";
import { satisfyCondition } from "@/lib/obligations/satisfy-condition";

// POST /obligations/{id}/conditions/{condition}/satisfy – satisfy a condition, recalculate terms
export const POST = handle(satisfyConditionOp, async ({ tx, principal, params, body }) => ({
  status: 200,
  body: await satisfyCondition(tx, { organizationId: principal.organizationId, obligationId: params.id, conditionId: params.condition, principal, body }),
}));
