import type { TApiKey, TMember, TOwnSession } from "@/lib/schemas/administration";
import { isScope, type Role } from "@/lib/auth/permissions";

const ts = (d: Date | null | undefined): string => (d ? d.toISOString() : "");

export function apiKeyView(k: {
  id: string;
  name: string;
  scopes: string[];
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): TApiKey {
  return {
    id: k.id,
    name: k.name,
    scopes: k.scopes.filter(isScope),
    prefix: k.prefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: ts(k.lastUsedAt),
    revoked_at: ts(k.revokedAt),
  };
}

// password_set is false while invited: whether the account has a password elsewhere is not
// this organization's to learn.
export function memberView(m: {
  id: string;
  role: string;
  status: string;
  createdAt: Date;
  user: { id: string; email: string; name: string; passwordHash: string };
}): TMember {
  const invited = m.status === "invited";
  return {
    id: m.id,
    user_id: m.user.id,
    email: m.user.email,
    name: m.user.name,
    role: m.role as Role,
    status: invited ? "invited" : "active",
    password_set: !invited && m.user.passwordHash !== "",
    created_at: m.createdAt.toISOString(),
  };
}

export function ownSessionView(
  s: { id: string; createdAt: Date; lastSeenAt: Date | null; expiresAt: Date; userAgent: string; method: string },
  currentSessionId: string,
): TOwnSession {
  return {
    id: s.id,
    created_at: s.createdAt.toISOString(),
    last_seen_at: ts(s.lastSeenAt),
    expires_at: s.expiresAt.toISOString(),
    user_agent: s.userAgent,
    method: s.method === "identity_provider" ? "identity_provider" : "password",
    current: s.id === currentSessionId,
  };
}
