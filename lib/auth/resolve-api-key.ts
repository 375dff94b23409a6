import { db, type Tx } from "@/lib/db/client";
import { type Query, statement } from "@/lib/db/query";
import { isScope } from "@/lib/auth/permissions";
import type { ApiKeyPrincipal } from "@/lib/auth/principal";
import { API_KEY_PREFIX } from "@/lib/auth/api-keys";
import { tokenLookup, type TokenLookup } from "@/lib/auth/token-routing";

// An API key is stored as the SHA-256 of its text without the route; it is looked up by that
// digest within the organization its route names (a key of the old form: by the digest alone).
// Undefined for a key whose route is malformed: refused like an unknown key.
export const apiKeyLookup = (apiKey: string): TokenLookup | undefined => tokenLookup(apiKey, API_KEY_PREFIX);

// The key and its organization's name (`organizations` is keyed by the organization's id).
const apiKeyWithOrganization = (q: Query) =>
  q
    .selectFrom("api_keys as k")
    .innerJoin("organizations as o", "o.id", "k.organization_id")
    .select(["k.id", "k.organization_id", "o.name as organization_name", "k.scopes", "k.revoked_at", "k.last_used_at"]);

// A key of the old form: by its hash alone (every shard on Citus); a routed key: by its hash
// within the organization its route names (one shard).
const byHash = statement((q, p: { hash: string }) => apiKeyWithOrganization(q).where("k.key_hash", "=", p.hash));
const byOrganizationAndHash = statement((q, p: { hash: string; organizationId: string }) =>
  apiKeyWithOrganization(q).where("k.key_hash", "=", p.hash).where("k.organization_id", "=", p.organizationId),
);

export type ApiKeyRow = Awaited<ReturnType<typeof byHash.rows>>[number];

// The key and its organization's name in one round trip (every API request starts here). On
// `q` = a request transaction (lib/http/steps/api-key-claim.ts sends it there together with the
// Idempotency-Key claim) or the plain handle.
export async function apiKeyRow(q: Tx, key: TokenLookup): Promise<ApiKeyRow | undefined> {
  const { hash, organizationId } = key;
  const rows = organizationId === undefined ? await byHash.rows(q, { hash }) : await byOrganizationAndHash.rows(q, { hash, organizationId });
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
  await db().apiKey.update({ where: { organizationId_id: { organizationId: row.organization_id, id: row.id } }, data: { lastUsedAt: new Date() } });
}

export async function resolveApiKey(apiKey: string): Promise<ApiKeyPrincipal | undefined> {
  const key = apiKeyLookup(apiKey);
  const row = key && (await apiKeyRow(db(), key));
  const principal = apiKeyPrincipal(row);
  if (principal && row && isStaleUse(row)) await touchApiKey(row);
  return principal;
}
