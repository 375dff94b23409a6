import { handle } from "@/lib/http/handle";
import { createContextRelationshipOp } from "@/lib/operations/contexts";
import { createContextRelationship } from "@/lib/contexts/create-context-relationship";
import { notServed } from "@/lib/http/not-served";

// POST /business-contexts/{id}/relationships – relate this context to another one
export const POST = handle(createContextRelationshipOp, async ({ tx, principal, params, body }) => ({
  status: 201,
  body: await createContextRelationship(tx, { organizationId: principal.organizationId, contextId: params.id, body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
