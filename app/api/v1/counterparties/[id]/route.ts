import { handle } from "@/lib/http/handle";
import { getCounterpartyOp } from "@/lib/operations/counterparties";
import { getCounterparty } from "@/lib/counterparties/get-counterparty";
import { notServed } from "@/lib/http/not-served";

// GET /counterparties/{id} – one counterparty with its open obligations
export const GET = handle(getCounterpartyOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await getCounterparty(tx, { organizationId: principal.organizationId, counterpartyId: params.id }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
