import { handle } from "@/lib/http/handle";
import { obligationActionsOp } from "@/lib/operations/obligations";
import { applyIssuerAction } from "@/lib/obligations/apply-issuer-action";
import { notServed } from "@/lib/http/not-served";

// POST /obligations/{id}/actions – apply an issuer action (optimistic concurrency)
export const POST = handle(obligationActionsOp, async ({ tx, principal, params, body }) => ({
  status: 200,
  body: await applyIssuerAction(tx, { organizationId: principal.organizationId, obligationId: params.id, principal, action: body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
