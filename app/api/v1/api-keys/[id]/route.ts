import { handle } from "@/lib/http/handle";
import { revokeApiKeyOp } from "@/lib/operations/admin";
import { revokeApiKey } from "@/lib/administration/revoke-api-key";

// DELETE /api-keys/{id} – revoke at once
export const DELETE = handle(revokeApiKeyOp, async ({ tx, principal, params }) => {
  await revokeApiKey(tx, { organizationId: principal.organizationId, ...params });
  return { status: 204 };
});
