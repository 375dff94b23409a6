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

export const ROLE_PERMISSIONS: Record<Role, readonly Scope[]> = {
  owner: SCOPES,
  admin: SCOPES,
  member: SCOPES.filter((s) => !s.startsWith("webhooks:")),
  viewer: READS,
};

export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);
export const isRole = (s: string): s is Role => (ROLES as readonly string[]).includes(s);
