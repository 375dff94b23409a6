import { handle } from "@/lib/http/handle";
import { errorBody } from "@/lib/errors";
import { createApiKeyOp, listApiKeysOp } from "@/lib/operations/admin";
import { listApiKeys } from "@/lib/administration/list-api-keys";
import { createOrganizationKey } from "@/lib/administration/create-api-key";
import { notServed } from "@/lib/http/not-served";

// GET /api-keys – the organization's keys (never the secret)
export const GET = handle(listApiKeysOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await listApiKeys(tx, { organizationId: principal.organizationId, ...query }),
}));

// POST /api-keys – create a key, shown once: a replay of the Idempotency-Key gets 409, not the key
export const POST = handle(createApiKeyOp, async ({ tx, principal, body }) => {
  const created = await createOrganizationKey(tx, { organizationId: principal.organizationId, ...body });
  const replay = errorBody("duplicate", `API key ${created.id} was already created with this Idempotency-Key; its value is shown only once`);
  return { status: 201, body: created, stored: { status: 409, body: replay } };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { PUT, PATCH, DELETE } = notServed("GET", "POST");
