import type { Tx } from "@/lib/db/client";
import { apiKeyView } from "@/lib/administration/view";
import type { TApiKey } from "@/lib/schemas/administration";

export type ListApiKeysInput = { organizationId: string; limit: number; offset: number };

// Active and revoked keys, newest first; never the key or its hash.
export async function listApiKeys(tx: Tx, input: ListApiKeysInput): Promise<{ items: TApiKey[]; limit: number; offset: number }> {
  const rows = await tx.apiKey.findMany({
    where: { organizationId: input.organizationId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit,
    skip: input.offset,
  });
  return { items: rows.map(apiKeyView), limit: input.limit, offset: input.offset };
}
