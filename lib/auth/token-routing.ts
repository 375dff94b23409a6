import { sha256Hex } from "@/lib/crypto";

// Credentials that name their organization (docs/scaling.md, "Finding the organization first"):
//   <prefix><route>_<secret>   route = the organization's id, its 16 bytes in base64url (22
//                              characters); secret = 32 random or derived bytes (43 characters)
// so every statement of a request can carry organization_id (one shard on Citus). The stored
// hash stays SHA-256 over <prefix><secret>, the token as it was before routing: a token of the
// old form (<prefix><secret>, never this long) is still found by its hash alone, and a link
// derived again gains its route over the same stored hash. The route is no secret and says
// nothing of the secret. The whole token stays in the base64url alphabet (opaque to clients).
const ROUTE_LENGTH = 22;
const SECRET_LENGTH = 43;
const ROUTE_RE = /^[A-Za-z0-9_-]{22}$/;

const routeOf = (organizationId: string): string => Buffer.from(organizationId.replace(/-/g, ""), "hex").toString("base64url");

// A token carrying its organization: `secret` is the part after the prefix (≥ 256 bits).
export const routedToken = (prefix: string, organizationId: string, secret: string): string => `${prefix}${routeOf(organizationId)}_${secret}`;

// What a presented token is looked up by: its organization (undefined for a token of the old
// form) and the stored hash. Undefined for a route that is not one (refused like an unknown token).
export type TokenLookup = { organizationId: string | undefined; hash: string };

export function tokenLookup(token: string, prefix = ""): TokenLookup | undefined {
  const sep = prefix.length + ROUTE_LENGTH;
  if (token.length !== sep + 1 + SECRET_LENGTH || token[sep] !== "_" || !token.startsWith(prefix)) {
    return { organizationId: undefined, hash: sha256Hex(token) };
  }
  const route = token.slice(prefix.length, sep);
  if (!ROUTE_RE.test(route)) return undefined;
  const bytes = Buffer.from(route, "base64url");
  // 22 characters hold 132 bits: a route whose spare bits differ from the id's own encoding is tampered.
  if (bytes.length !== 16 || bytes.toString("base64url") !== route) return undefined;
  const hex = bytes.toString("hex");
  const organizationId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { organizationId, hash: sha256Hex(prefix + token.slice(sep + 1)) };
}

// The organization a token's route names; null for a token of the old form, a malformed one or none.
export const tokenOrganization = (token: string | undefined, prefix = ""): string | null =>
  token === undefined ? null : (tokenLookup(token, prefix)?.organizationId ?? null);

// The hash a new routed token is stored under (the same tokenLookup finds).
export const routedTokenHash = (prefix: string, secret: string): string => sha256Hex(prefix + secret);
