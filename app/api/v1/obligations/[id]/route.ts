import { handle } from "@/lib/http/handle";
import { getObligationOp } from "@/lib/operations/obligations";
import { getObligationDetail } from "@/lib/obligations/get-obligation-detail";
import { notServed } from "@/lib/http/not-served";
import { mayRevealLink } from "@/lib/auth/principal";

// GET /obligations/{id} – obligation detail with audit trail
export const GET = handle(getObligationOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await getObligationDetail(tx, { organizationId: principal.organizationId, obligationId: params.id, revealLink: mayRevealLink(principal) }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
