import { db, sql, type Tx } from "@/lib/db/client";
import { sha256Hex } from "@/lib/crypto";
import { isScope } from "@/lib/auth/permissions";
import type { ApiKeyPrincipal } from "@/lib/auth/principal";

// An API key is stored as the SHA-256 of its text; it is looked up by that digest.
export const apiKeyHash = (apiKey: string): string => sha256Hex(apiKey);

export type ApiKeyRow = {
  id: string;
  organization_id: string;
  organization_name: string;
  scopes: string[];
  revoked_at: Date | null;
  last_used_at: Date | null;
};

// The key and its organization's name in one round trip (every API request starts here). On
// `q` = a request transaction (lib/http/steps/api-key-claim.ts sends it there together with the
// Idempotency-Key claim) or the plain handle.
export async function apiKeyRow(q: Tx, keyHash: string): Promise<ApiKeyRow | undefined> {
  const rows = await sql<ApiKeyRow>(
    q,
    `SELECT k.id::text, k.organization_id::text, o.name AS organization_name, k.scopes, k.revoked_at, k.last_used_at
    FROM api_keys k JOIN organizations o ON o.id = k.organization_id
    WHERE k.key_hash = $1`,
    [keyHash],
  );
  return rows[0];
}

// The principal of a key found and not revoked.
export function apiKeyPrincipal(row: ApiKeyRow | undefined): ApiKeyPrincipal | undefined {
  if (!row || row.revoked_at) return undefined;
  return {
    kind: "api_key",
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    apiKeyId: row.id,
    scopes: row.scopes.filter(isScope),
  };
}

// last_used_at is refreshed at most once a minute per key (shown in the dashboard), on the
// plain handle: never inside a request transaction, whose row lock on the key would make
// every other request with this key wait for that transaction.
export const isStaleUse = (row: ApiKeyRow): boolean => !row.last_used_at || Date.now() - row.last_used_at.getTime() > 60_000;

export async function touchApiKey(row: ApiKeyRow): Promise<void> {
  await db().apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
}

export async function resolveApiKey(apiKey: string): Promise<ApiKeyPrincipal | undefined> {
  const row = await apiKeyRow(db(), apiKeyHash(apiKey));
  const principal = apiKeyPrincipal(row);
  if (principal && row && isStaleUse(row)) await touchApiKey(row);
  return principal;
}
