import { handle } from "@/lib/http/handle";
import { listObligationsOp, registerObligationOp } from "@/lib/operations/obligations";
import { registerObligation } from "@/lib/obligations/register-obligation";
import { listObligations } from "@/lib/obligations/list-obligations";
import { notServed } from "@/lib/http/not-served";

// POST /obligations – register an obligation and its hosted payment request
export const POST = handle(registerObligationOp, async ({ tx, principal, body }) => ({
  status: 201,
  body: await registerObligation(tx, { organizationId: principal.organizationId, principal, body }),
}));

// GET /obligations – list obligation projections (filters, search, sort; newest first by default)
export const GET = handle(listObligationsOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await listObligations(tx, { organizationId: principal.organizationId, query: query }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { PUT, PATCH, DELETE } = notServed("GET", "POST");
