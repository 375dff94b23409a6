import type { Tx } from "@/lib/db/client";
import { notFound } from "@/lib/errors";

export type RevokeApiKeyInput = { organizationId: string; id: string };

// Revocation is immediate: every request resolves the key afresh, so its next call is
// 401. Revoking a revoked key changes nothing.
export async function revokeApiKey(tx: Tx, input: RevokeApiKeyInput): Promise<void> {
  const key = await tx.apiKey.findFirst({ where: { id: input.id, organizationId: input.organizationId } });
  if (!key) throw notFound("API key");
  if (!key.revokedAt) await tx.apiKey.updateMany({ where: { id: key.id, revokedAt: null }, data: { revokedAt: new Date() } });
}
