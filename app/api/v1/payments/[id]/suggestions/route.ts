import { handle } from "@/lib/http/handle";
import { listPaymentSuggestionsOp } from "@/lib/operations/reconciliation";
import { listPaymentSuggestions } from "@/lib/reconciliation/list-payment-suggestions";

// GET /payments/{id}/suggestions – match suggestions with their evidence, best first
export const GET = handle(listPaymentSuggestionsOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await listPaymentSuggestions(tx, { organizationId: principal.organizationId, paymentId: params.id }),
}));
