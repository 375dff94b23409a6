import { handle } from "@/lib/http/handle";
import { createBusinessContextOp, listBusinessContextsOp } from "@/lib/operations/contexts";
import { createBusinessContext } from "@/lib/contexts/create-business-context";
import { listBusinessContexts } from "@/lib/contexts/list-business-contexts";
import { notServed } from "@/lib/http/not-served";

// GET /business-contexts – list with context_kind / context_type (deprecated) / search filters
export const GET = handle(listBusinessContextsOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await listBusinessContexts(tx, { organizationId: principal.organizationId, query: query }),
}));

// POST /business-contexts – create a business context
export const POST = handle(createBusinessContextOp, async ({ tx, principal, body }) => ({
  status: 201,
  body: await createBusinessContext(tx, { organizationId: principal.organizationId, body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { PUT, PATCH, DELETE } = notServed("GET", "POST");
