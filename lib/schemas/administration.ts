import { z } from "zod";
import { SCOPES, ROLES } from "@/lib/auth/permissions";
import { ZTimestamp, ZUuid, listEnvelope } from "@/lib/schemas/common";
import { ZLink } from "@/lib/schemas/sessions";

export const ZScope = z.enum(SCOPES);
export const ZRole = z.enum(ROLES);

export const ZApiKeyInput = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(100),
  scopes: z
    .array(ZScope)
    .min(1, "must name at least one scope")
    .refine((s) => new Set(s).size === s.length, "must not repeat a scope"),
});
export type TApiKeyInput = z.infer<typeof ZApiKeyInput>;

export const ZApiKey = z.strictObject({
  id: ZUuid,
  name: z.string(),
  scopes: z.array(ZScope),
  prefix: z.string().meta({ description: "The first characters of the key, to recognise it" }),
  created_at: ZTimestamp,
  last_used_at: z.string().meta({ description: 'Last authenticated call (refreshed at most once a minute), or "" if never used' }),
  revoked_at: z.string().meta({ description: 'When the key was revoked, or "" while it is active' }),
});
export type TApiKey = z.infer<typeof ZApiKey>;

export const ZApiKeyCreated = ZApiKey.extend({
  key: z.string().meta({ description: "The secret key. Shown only in this response: it is stored as a SHA-256 hash only." }),
});
export type TApiKeyCreated = z.infer<typeof ZApiKeyCreated>;

export const ZApiKeyList = listEnvelope(ZApiKey);

export const ZMemberInput = z.strictObject({
  email: z.email({ message: "must be an email address" }).max(320),
  role: ZRole,
  name: z.string().trim().max(200).optional().meta({ description: "Used for a new account only; an existing account keeps its own name" }),
});
export type TMemberInput = z.infer<typeof ZMemberInput>;

export const ZMemberRoleInput = z.strictObject({ role: ZRole });
export type TMemberRoleInput = z.infer<typeof ZMemberRoleInput>;

export const ZMember = z.strictObject({
  id: ZUuid.meta({ description: "The membership id (used in /members/{id})" }),
  user_id: ZUuid,
  email: z.string(),
  name: z.string(),
  role: ZRole,
  status: z.enum(["invited", "active"]).meta({ description: "`invited` until the person accepts the invitation link; only then can they sign in here" }),
  password_set: z.boolean().meta({ description: "false: the member signs in only through the identity provider (always false while invited)" }),
  created_at: ZTimestamp,
});
export type TMember = z.infer<typeof ZMember>;

export const ZMemberList = listEnvelope(ZMember);

export const ZMemberInvited = z.strictObject({
  member: ZMember,
  invitation: ZLink.meta({
    description: "The invitation link (`{PUBLIC_BASE_URL}/invite/{id}#{token}`, 7 days): shown only in this response, never in a replay of it",
  }),
});
export type TMemberInvited = z.infer<typeof ZMemberInvited>;

export const ZOwnSession = z.strictObject({
  id: ZUuid,
  created_at: ZTimestamp,
  last_seen_at: z.string().meta({ description: 'Last request (refreshed at most once a minute), or ""' }),
  expires_at: ZTimestamp,
  user_agent: z.string(),
  method: z.enum(["password", "identity_provider"]),
  current: z.boolean().meta({ description: "true for the session making this request" }),
});
export type TOwnSession = z.infer<typeof ZOwnSession>;

export const ZOwnSessionList = z.strictObject({ items: z.array(ZOwnSession) });
