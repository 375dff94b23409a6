import { handle } from "@/lib/http/handle";
import { revokeApiKeyOp } from "@/lib/operations/admin";
import { revokeApiKey } from "@/lib/administration/revoke-api-key";
import { notServed } from "@/lib/http/not-served";

// DELETE /api-keys/{id} – revoke at once
export const DELETE = handle(revokeApiKeyOp, async ({ tx, principal, params }) => {
  await revokeApiKey(tx, { organizationId: principal.organizationId, ...params });
  return { status: 204 };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, POST, PUT, PATCH } = notServed("DELETE");
