import { handle } from "@/lib/http/handle";
import { invoiceActionsOp } from "@/lib/operations/invoices";
import { applyIssuerAction } from "@/lib/obligations/apply-issuer-action";
import { notServed } from "@/lib/http/not-served";

// POST /invoices/{id}/actions – apply an issuer action to an invoice
export const POST = handle(invoiceActionsOp, async ({ tx, principal, params, body }) => ({
  status: 200,
  body: await applyIssuerAction(tx, { organizationId: principal.organizationId, obligationId: params.id, principal, action: body, obligationType: "invoice" }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
