import { handle } from "@/lib/http/handle";
import { acceptPaymentSuggestionOp } from "@/lib/operations/reconciliation";
import { acceptSuggestion } from "@/lib/reconciliation/accept-suggestion";

// POST /payments/{id}/suggestions/{suggestion}/accept – all allocations of a suggestion, atomically
export const POST = handle(acceptPaymentSuggestionOp, async ({ tx, principal, params }) => ({
  status: 200,
  body: await acceptSuggestion(tx, { organizationId: principal.organizationId, principal, paymentId: params.id, suggestionId: params.suggestion }),
}));
