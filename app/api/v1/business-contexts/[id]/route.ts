import { handle } from "@/lib/http/handle";
import { getBusinessContextOp } from "@/lib/operations/contexts";
import { getBusinessContext } from "@/lib/contexts/get-business-context";
import { notServed } from "@/lib/http/not-served";

// GET /business-contexts/{id} – the context with relationships, related obligations and totals
export const GET = handle(getBusinessContextOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await getBusinessContext(tx, { organizationId: principal.organizationId, contextId: params.id }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
