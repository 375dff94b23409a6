import { db } from "@/lib/db";
import { sha256Hex } from "@/lib/crypto";
import { isScope } from "@/lib/auth/permissions";
import type { IssuerPrincipal } from "@/lib/auth/principal";

export async function resolveApiKey(apiKey: string): Promise<IssuerPrincipal | undefined> {
  const row = await db().apiKey.findUnique({ where: { keyHash: sha256Hex(apiKey) } });
  if (!row || row.revokedAt) return undefined;
  return { kind: "api_key", organizationId: row.organizationId, apiKeyId: row.id, scopes: row.scopes.filter(isScope) };
}
