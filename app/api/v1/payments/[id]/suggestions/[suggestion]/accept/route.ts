import { handle } from "@/lib/http/handle";
import { acceptPaymentSuggestionOp } from "@/lib/operations/reconciliation";
import { acceptSuggestion } from "@/lib/reconciliation/accept-suggestion";
import { notServed } from "@/lib/http/not-served";

// POST /payments/{id}/suggestions/{suggestion}/accept – all allocations of a suggestion, atomically
export const POST = handle(acceptPaymentSuggestionOp, async ({ tx, principal, params, body }) => ({
  status: 200,
  body: await acceptSuggestion(tx, { organizationId: principal.organizationId, principal, paymentId: params.id, suggestionId: params.suggestion, body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
