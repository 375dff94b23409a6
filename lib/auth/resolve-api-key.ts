import { db } from "@/lib/db";
import { sha256Hex } from "@/lib/crypto";
import { isScope } from "@/lib/auth/permissions";
import type { IssuerPrincipal } from "@/lib/auth/principal";

export async function resolveApiKey(apiKey: string): Promise<IssuerPrincipal | undefined> {
  const row = await db().apiKey.findUnique({ where: { keyHash: sha256Hex(apiKey) } });
  if (!row || row.revokedAt) return undefined;
  // last_used_at is refreshed at most once a minute per key (shown in the dashboard).
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await db().apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  return { kind: "api_key", organizationId: row.organizationId, apiKeyId: row.id, scopes: row.scopes.filter(isScope) };
}
