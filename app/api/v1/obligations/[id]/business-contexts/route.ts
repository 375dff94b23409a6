import { handle } from "@/lib/http/handle";
import { linkObligationContextOp } from "@/lib/operations/contexts";
import { linkObligationContext } from "@/lib/contexts/link-obligation-context";
import { notServed } from "@/lib/http/not-served";

// POST /obligations/{id}/business-contexts – attach a business context to an obligation
export const POST = handle(linkObligationContextOp, async ({ tx, principal, params, body }) => ({
  status: 201,
  body: await linkObligationContext(tx, { organizationId: principal.organizationId, obligationId: params.id, principal, body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
