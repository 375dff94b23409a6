import { handle } from "@/lib/http/handle";
import { createCreditOp } from "@/lib/operations/obligations";
import { creditObligation } from "@/lib/obligations/credit-obligation";
import { notServed } from "@/lib/http/not-served";

// POST /obligations/{id}/credits – settle part of an obligation without money
export const POST = handle(createCreditOp, async ({ tx, principal, params, body }) => ({
  status: 201,
  body: await creditObligation(tx, { organizationId: principal.organizationId, obligationId: params.id, principal, body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
