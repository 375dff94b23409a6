import type { Tx } from "@/lib/db/client";
import { createApiKey } from "@/lib/auth/api-keys";
import { apiKeyView } from "@/lib/administration/view";
import type { TApiKeyCreated, TApiKeyInput } from "@/lib/schemas/administration";

export type CreateApiKeyInput = { organizationId: string } & TApiKeyInput;

export async function createOrganizationKey(tx: Tx, input: CreateApiKeyInput): Promise<TApiKeyCreated> {
  const { id, apiKey } = await createApiKey(tx, { organizationId: input.organizationId, scopes: input.scopes, name: input.name });
  const row = await tx.apiKey.findFirstOrThrow({ where: { id, organizationId: input.organizationId } });
  return { ...apiKeyView(row), key: apiKey };
}
