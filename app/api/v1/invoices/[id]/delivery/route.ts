import { handle } from "@/lib/http/handle";
import { invoiceDeliveryOp } from "@/lib/operations/invoices";
import { deliveryDraft } from "@/lib/invoices/delivery-draft";

// GET /invoices/{id}/delivery – delivery draft with the hosted URL (sends and records nothing)
export const GET = handle(invoiceDeliveryOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await deliveryDraft(tx, { organizationId: principal.organizationId, obligationId: params.id }),
}));
