import { handle } from "@/lib/http/handle";
import { getBusinessContextOp } from "@/lib/operations/contexts";
import { getBusinessContext } from "@/lib/contexts/get-business-context";

// GET /business-contexts/{id} – the context with relationships, related obligations and totals
export const GET = handle(getBusinessContextOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await getBusinessContext(tx, { organizationId: principal.organizationId, contextId: params.id }),
}));
