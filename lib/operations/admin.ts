import { defineOperation } from "@/lib/http/operation";
import { ADMINISTRATION } from "@/lib/auth/permissions";
import { ZIdParams, ZPageQuery } from "@/lib/schemas/common";
import {
  ZApiKeyCreated,
  ZApiKeyInput,
  ZApiKeyList,
  ZMember,
  ZMemberInput,
  ZMemberInvited,
  ZMemberList,
  ZMemberRoleInput,
  ZOwnSessionList,
} from "@/lib/schemas/administration";
import { ZLink } from "@/lib/schemas/sessions";

const tags = ["Administration"];

const ADMIN_AUTH =
  "Issuer session of an owner or admin only: an API key is refused with 403 `insufficient_scope` (no key can carry the administration permission), the member and viewer roles with 403 `insufficient_permission`.";

const apiKeyExample = {
  id: "0b9c5a3e-4f1d-4c8e-9a51-2f7b1c3d4e5f",
  name: "Accounting export",
  scopes: ["obligations:read", "payments:read"],
  prefix: "fos_Ab3dE6",
  created_at: "2026-11-22T10:00:00.000Z",
  last_used_at: "",
  revoked_at: "",
};

const invitedExample = {
  member: {
    id: "5f0e6f2a-7b8c-4d9e-8f10-1a2b3c4d5e6f",
    user_id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    email: "ada@example.com",
    name: "Ada Lovelace",
    role: "member",
    status: "invited",
    password_set: false,
    created_at: "2026-11-22T10:00:00.000Z",
  },
  invitation: {
    url: "https://fos.example.com/invite/7d6c5b4a-3f2e-4d1c-9b8a-7f6e5d4c3b2a#q3Xk0bV7mZ1rT9wYc2LpA8sN4dF6gH5jK0eR3uI7oPw",
    expires_at: "2026-11-29T10:00:00.000Z",
  },
};

const memberExample = {
  id: "5f0e6f2a-7b8c-4d9e-8f10-1a2b3c4d5e6f",
  user_id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
  email: "ada@example.com",
  name: "Ada Lovelace",
  role: "member",
  status: "active",
  password_set: true,
  created_at: "2026-11-22T10:00:00.000Z",
};

export const listApiKeysOp = defineOperation({
  operationId: "listApiKeys",
  method: "GET",
  path: "/api-keys",
  summary: "API keys of the organization",
  description: `Active and revoked keys, newest first, with their scopes, \`prefix\` (to recognise a key), \`created_at\`, \`last_used_at\` and \`revoked_at\` ("" when not set). Never the key or its hash. ${ADMIN_AUTH}`,
  tags,
  auth: "issuer",
  permission: ADMINISTRATION,
  query: ZPageQuery,
  success: { status: 200, description: "The keys", schema: ZApiKeyList, example: { items: [apiKeyExample], limit: 50, offset: 0 } },
});

export const createApiKeyOp = defineOperation({
  operationId: "createApiKey",
  method: "POST",
  path: "/api-keys",
  summary: "Create an API key (the key is shown once)",
  description: `Creates a key with a name and the scopes it may use. The secret \`key\` is in this 201 response only: the service keeps nothing but its SHA-256 hash. For that reason the response stored for the Idempotency-Key does not hold the key: a replay of the same Idempotency-Key and body answers 409 \`duplicate\` naming the key's id (the key was created once; if its value was lost, revoke it and create another). ${ADMIN_AUTH}`,
  tags,
  auth: "issuer",
  permission: ADMINISTRATION,
  idempotent: "required",
  body: ZApiKeyInput,
  bodyExample: { name: "Accounting export", scopes: ["obligations:read", "payments:read"] },
  success: {
    status: 201,
    description: "Created; `key` is shown only here",
    schema: ZApiKeyCreated,
    example: { ...apiKeyExample, key: "fos_Ab3dE6fGh7iJk8lMn9oPq0rSt1uVw2xYz3AbC4dEf5g" },
  },
  errors: [409],
});

export const revokeApiKeyOp = defineOperation({
  operationId: "revokeApiKey",
  method: "DELETE",
  path: "/api-keys/{id}",
  summary: "Revoke an API key at once",
  description: `The key's next call is 401 \`unauthenticated\`. Revoking a revoked key is a no-op 204; a key of another organization is 404. ${ADMIN_AUTH}`,
  tags,
  auth: "issuer",
  permission: ADMINISTRATION,
  params: ZIdParams,
  success: { status: 204, description: "Revoked" },
});

export const listMembersOp = defineOperation({
  operationId: "listMembers",
  method: "GET",
  path: "/members",
  summary: "Members of the organization",
  description: `Every member, oldest first, with role, \`status\` (\`invited\` until the person accepts the invitation link, then \`active\`) and whether a password is set (\`password_set: false\`: single sign-on only, or still invited). ${ADMIN_AUTH}`,
  tags,
  auth: "issuer",
  permission: ADMINISTRATION,
  query: ZPageQuery,
  success: { status: 200, description: "The members", schema: ZMemberList, example: { items: [memberExample], limit: 50, offset: 0 } },
});

export const addMemberOp = defineOperation({
  operationId: "addMember",
  method: "POST",
  path: "/members",
  summary: "Invite a member (the invitation link is shown once)",
  description: `Invites a person by email with a role (\`owner\`, \`admin\`, \`member\`, \`viewer\`). The member is \`status: "invited"\` until the person opens \`invitation.url\` (\`{PUBLIC_BASE_URL}/invite/{id}#{token}\`, valid 7 days) and accepts (\`POST /invitations/{id}/accept\`): with a new password for an email that has no account yet, with the account's own password, session or single sign-on otherwise. An organization never sets or learns anyone's password. The link is a capability: hand it to the person only. Its token is stored as a SHA-256 hash and is in this 201 response only: a replay of the same Idempotency-Key answers 409 \`duplicate\` naming the member's id (issue a new link with \`POST /members/{id}/invitation\`). An email that is already a member or invited is 409 \`duplicate\`. \`name\` is used only for an email that has no account. Only an owner may invite an owner (else 403 \`insufficient_permission\`). ${ADMIN_AUTH}`,
  tags,
  auth: "issuer",
  permission: ADMINISTRATION,
  idempotent: "required",
  body: ZMemberInput,
  bodyExample: { email: "ada@example.com", role: "member", name: "Ada Lovelace" },
  success: { status: 201, description: "Invited; `invitation.url` is shown only here", schema: ZMemberInvited, example: invitedExample },
  errors: [409],
});

export const reissueInvitationOp = defineOperation({
  operationId: "reissueInvitation",
  method: "POST",
  path: "/members/{id}/invitation",
  summary: "Issue a new invitation link (the earlier one dies)",
  description: `For a member still \`invited\`: a new link valid 7 days; the earlier link answers 410 \`invitation_expired\` from now on. Shown only in this 201: a replay of the same Idempotency-Key answers 409 \`duplicate\`. A member who has accepted is 409 \`invalid_state\`. ${ADMIN_AUTH}`,
  tags,
  auth: "issuer",
  permission: ADMINISTRATION,
  idempotent: "required",
  params: ZIdParams,
  success: { status: 201, description: "The new link; shown only here", schema: ZMemberInvited, example: invitedExample },
  errors: [409],
});

export const createPasswordResetOp = defineOperation({
  operationId: "createPasswordReset",
  method: "POST",
  path: "/members/{id}/password-reset",
  summary: "Create a one-time password-reset link for a member",
  description: `A link (\`{PUBLIC_BASE_URL}/password-reset/{id}#{token}\`, valid 1 hour) with which the person sets a new password themselves (\`POST /password-resets/{id}/complete\`); every session of the account then ends. Only for an account whose only membership is in this organization: an account that belongs to other organizations too, or a member still invited, is 409 \`invalid_state\` (the person uses their own password, or the server's operator runs \`npm run admin -- reset-password --email E\`). The link is shown only in this 201; a replay of the same Idempotency-Key answers 409 \`duplicate\`. ${ADMIN_AUTH}`,
  tags,
  auth: "issuer",
  permission: ADMINISTRATION,
  idempotent: "required",
  params: ZIdParams,
  success: {
    status: 201,
    description: "The link; shown only here",
    schema: ZLink,
    example: {
      url: "https://fos.example.com/password-reset/2b3c4d5e-6f70-4812-9a3b-4c5d6e7f8091#Zt4Qm8rV1nK6pW2xY7cB3dF9gH0jL5sA1eR4uI8oPq",
      expires_at: "2026-11-22T11:00:00.000Z",
    },
  },
  errors: [409],
});

export const changeMemberRoleOp = defineOperation({
  operationId: "changeMemberRole",
  method: "PATCH",
  path: "/members/{id}",
  summary: "Change a member's role",
  description: `The new role applies to the member's very next request (roles are read on every request, sessions stay). Only an owner may grant or take away the owner role (else 403 \`insufficient_permission\`); the last owner cannot be demoted (409 \`invalid_state\`). ${ADMIN_AUTH}`,
  tags,
  auth: "issuer",
  permission: ADMINISTRATION,
  params: ZIdParams,
  body: ZMemberRoleInput,
  bodyExample: { role: "admin" },
  success: { status: 200, description: "The member with the new role", schema: ZMember, example: { ...memberExample, role: "admin" } },
  errors: [409],
});

export const removeMemberOp = defineOperation({
  operationId: "removeMember",
  method: "DELETE",
  path: "/members/{id}",
  summary: "Remove a member; their sessions end at once",
  description: `Removes the membership and revokes every session of the member in this organization: their next request is 401. For a member still \`invited\`, withdraws the invitation: its link answers 410 \`invitation_expired\`. Only an owner may remove an owner (else 403 \`insufficient_permission\`); the last owner cannot be removed (409 \`invalid_state\`). ${ADMIN_AUTH}`,
  tags,
  auth: "issuer",
  permission: ADMINISTRATION,
  params: ZIdParams,
  success: { status: 204, description: "Removed" },
  errors: [409],
});

export const listOwnSessionsOp = defineOperation({
  operationId: "listOwnSessions",
  method: "GET",
  path: "/session/sessions",
  summary: "The signed-in user's active sessions",
  description:
    "Active sessions of the calling user in this organization, the current one first (`current: true`), with `created_at`, `last_seen_at` (refreshed at most once a minute), `expires_at`, the browser's user agent and how it signed in (`password` or `identity_provider`). Accepts only an issuer session; an API key is refused with 401.",
  tags: ["Sessions"],
  auth: "issuer_session",
  success: {
    status: 200,
    description: "The sessions",
    schema: ZOwnSessionList,
    example: {
      items: [
        {
          id: "3c2b1a09-8f7e-4d6c-9b5a-493827160f1e",
          created_at: "2026-11-22T10:00:00.000Z",
          last_seen_at: "2026-11-22T10:05:00.000Z",
          expires_at: "2026-11-22T22:00:00.000Z",
          user_agent: "Mozilla/5.0 (X11; Linux x86_64)",
          method: "password",
          current: true,
        },
      ],
    },
  },
});

export const endOtherSessionsOp = defineOperation({
  operationId: "endOtherSessions",
  method: "DELETE",
  path: "/session/sessions",
  summary: "Sign out everywhere else",
  description:
    "Revokes every other session of the calling user at once (their next request is 401); the calling session stays signed in. Accepts only an issuer session; an API key is refused with 401.",
  tags: ["Sessions"],
  auth: "issuer_session",
  success: { status: 204, description: "Every other session ended" },
});

export const adminOperations = [
  listApiKeysOp,
  createApiKeyOp,
  revokeApiKeyOp,
  listMembersOp,
  addMemberOp,
  reissueInvitationOp,
  createPasswordResetOp,
  changeMemberRoleOp,
  removeMemberOp,
  listOwnSessionsOp,
  endOtherSessionsOp,
];
