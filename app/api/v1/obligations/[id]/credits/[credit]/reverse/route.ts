import { handle } from "@/lib/http/handle";
import { reverseCreditOp } from "@/lib/operations/obligations";
import { reverseCredit } from "@/lib/obligations/reverse-credit";
import { notServed } from "@/lib/http/not-served";

// POST /obligations/{id}/credits/{credit}/reverse – undo a wrong credit (kept in the history)
export const POST = handle(reverseCreditOp, async ({ tx, principal, params, body }) => ({
  status: 200,
  body: await reverseCredit(tx, { organizationId: principal.organizationId, obligationId: params.id, creditId: params.credit, principal, body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
