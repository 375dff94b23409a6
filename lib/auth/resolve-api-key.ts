import { db, sql } from "@/lib/db";
import { sha256Hex } from "@/lib/crypto";
import { isScope } from "@/lib/auth/permissions";
import type { IssuerPrincipal } from "@/lib/auth/principal";

// The key and its organization's name in one round trip (every API request starts here).
export async function resolveApiKey(apiKey: string): Promise<IssuerPrincipal | undefined> {
  const rows = await sql<{
    id: string;
    organization_id: string;
    organization_name: string;
    scopes: string[];
    revoked_at: Date | null;
    last_used_at: Date | null;
  }>(
    db(),
    `SELECT k.id::text, k.organization_id::text, o.name AS organization_name, k.scopes, k.revoked_at, k.last_used_at
    FROM api_keys k JOIN organizations o ON o.id = k.organization_id
    WHERE k.key_hash = $1`,
    [sha256Hex(apiKey)],
  );
  const row = rows[0];
  if (!row || row.revoked_at) return undefined;
  // last_used_at is refreshed at most once a minute per key (shown in the dashboard).
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000) {
    await db().apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  return {
    kind: "api_key",
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    apiKeyId: row.id,
    scopes: row.scopes.filter(isScope),
  };
}
