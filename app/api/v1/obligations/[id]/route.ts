import { handle } from "@/lib/http/handle";
import { getObligationOp } from "@/lib/operations/obligations";
import { getObligationDetail } from "@/lib/obligations/get-obligation-detail";

// GET /obligations/{id} – obligation detail with audit trail
export const GET = handle(getObligationOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await getObligationDetail(tx, { organizationId: principal.organizationId, obligationId: params.id }),
}));
