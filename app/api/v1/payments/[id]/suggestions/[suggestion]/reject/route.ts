import { handle } from "@/lib/http/handle";
import { rejectPaymentSuggestionOp } from "@/lib/operations/reconciliation";
import { rejectSuggestion } from "@/lib/reconciliation/reject-suggestion";
import { notServed } from "@/lib/http/not-served";

// POST /payments/{id}/suggestions/{suggestion}/reject – hide that allocation set for this payment
export const POST = handle(rejectPaymentSuggestionOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await rejectSuggestion(tx, { organizationId: principal.organizationId, principal, paymentId: params.id, suggestionId: params.suggestion }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
