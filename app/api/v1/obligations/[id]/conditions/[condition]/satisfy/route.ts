import { handle } from "@/lib/http/handle";
import { satisfyConditionOp } from "@/lib/operations/obligations";
import { satisfyCondition } from "@/lib/obligations/satisfy-condition";
import { notServed } from "@/lib/http/not-served";

// POST /obligations/{id}/conditions/{condition}/satisfy – satisfy a condition, recalculate terms
export const POST = handle(satisfyConditionOp, async ({ tx, principal, params, body }) => ({
  status: 200,
  body: await satisfyCondition(tx, { organizationId: principal.organizationId, obligationId: params.id, conditionId: params.condition, principal, body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
