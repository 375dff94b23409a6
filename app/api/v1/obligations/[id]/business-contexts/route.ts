import { handle } from "@/lib/http/handle";
import { linkObligationContextOp } from "@/lib/operations/contexts";
import { linkObligationContext } from "@/lib/contexts/link-obligation-context";

// POST /obligations/{id}/business-contexts – attach a business context to an obligation
export const POST = handle(linkObligationContextOp, async ({ tx, principal, params, body }) => ({
  status: 201,
  body: await linkObligationContext(tx, { organizationId: principal.organizationId, obligationId: params.id, principal, body }),
}));
