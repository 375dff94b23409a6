import { handle } from "@/lib/http/handle";
import { listPaymentSuggestionsOp } from "@/lib/operations/reconciliation";
import { listPaymentSuggestions } from "@/lib/reconciliation/list-payment-suggestions";
import { notServed } from "@/lib/http/not-served";

// GET /payments/{id}/suggestions – match suggestions with their evidence, best first
export const GET = handle(listPaymentSuggestionsOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await listPaymentSuggestions(tx, { organizationId: principal.organizationId, paymentId: params.id }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH, DELETE } = notServed("GET");
