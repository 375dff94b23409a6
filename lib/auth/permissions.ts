// API key scopes and user role permissions share one vocabulary: an endpoint names the
// permission it needs; an API key must carry it as a scope (else 403 insufficient_scope),
// a signed-in user's role must grant it (else 403 insufficient_permission).
export const SCOPES = [
  "obligations:read",
  "obligations:write",
  "payments:read",
  "payments:write",
  "contexts:read",
  "contexts:write",
  "webhooks:read",
  "webhooks:write",
] as const;

export type Scope = (typeof SCOPES)[number];

export const ROLES = ["owner", "admin", "member", "viewer"] as const;
export type Role = (typeof ROLES)[number];

const READS = SCOPES.filter((s) => s.endsWith(":read"));

// Organization administration (API keys, members) is a permission of the owner and admin
// roles that is never an API key scope: a key can never manage keys or members, so a key
// calling those endpoints is always 403 insufficient_scope.
export const ADMINISTRATION = "organization:administer" as const;
export type Permission = Scope | typeof ADMINISTRATION;

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: [...SCOPES, ADMINISTRATION],
  admin: [...SCOPES, ADMINISTRATION],
  member: SCOPES.filter((s) => !s.startsWith("webhooks:")),
  viewer: READS,
};

export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);
export const isRole = (s: string): s is Role => (ROLES as readonly string[]).includes(s);
