import { handle } from "@/lib/http/handle";
import { getInvoiceOp } from "@/lib/operations/invoices";
import { getInvoiceDetail } from "@/lib/obligations/get-obligation-detail";

// GET /invoices/{id} – invoice detail with audit trail
export const GET = handle(getInvoiceOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await getInvoiceDetail(tx, { organizationId: principal.organizationId, obligationId: params.id }),
}));
