import { handle } from "@/lib/http/handle";
import { invoiceDeliveryOp } from "@/lib/operations/invoices";
import { deliveryDraft } from "@/lib/invoices/delivery-draft";
import { notServed } from "@/lib/http/not-served";

// GET /invoices/{id}/delivery – delivery draft with the hosted URL (sends and records nothing)
export const GET = handle(invoiceDeliveryOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await deliveryDraft(tx, { organizationId: principal.organizationId, obligationId: params.id }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
