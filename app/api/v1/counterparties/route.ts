import { handle } from "@/lib/http/handle";
import { listCounterpartiesOp } from "@/lib/operations/counterparties";
import { listCounterparties } from "@/lib/counterparties/list-counterparties";
import { notServed } from "@/lib/http/not-served";

// GET /counterparties – the organization's debtors, grouped, with their open totals
export const GET = handle(listCounterpartiesOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await listCounterparties(tx, { organizationId: principal.organizationId, ...query }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
