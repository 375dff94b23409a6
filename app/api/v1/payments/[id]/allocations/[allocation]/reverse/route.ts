import { handle } from "@/lib/http/handle";
import { reverseAllocationOp } from "@/lib/operations/payments";
import { reverseAllocation } from "@/lib/payments/reverse-allocation";
import { notServed } from "@/lib/http/not-served";

// POST /payments/{id}/allocations/{allocation}/reverse – undo a wrong allocation (kept in the history)
export const POST = handle(reverseAllocationOp, async ({ tx, principal, params, body }) => ({
  status: 200,
  body: await reverseAllocation(tx, { organizationId: principal.organizationId, paymentId: params.id, allocationId: params.allocation, principal, body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
