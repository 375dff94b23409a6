import { defineOperation } from "@/lib/http/operation";
import { ZIdParams } from "@/lib/schemas/common";
import {
  ZInvitationAcceptInput,
  ZLoginInput,
  ZPasswordChangeInput,
  ZPasswordResetCompleteInput,
  ZSession,
  ZSessionDetail,
  ZSwitchOrganizationInput,
} from "@/lib/schemas/sessions";

const sessionExample = {
  user: { id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", email: "ada@example.com", name: "Ada Lovelace" },
  organization: { id: "1f2e3d4c-5b6a-4798-8877-665544332211", name: "Acme GmbH" },
  role: "member",
  expires_at: "2026-11-22T22:00:00.000Z",
};

const tags = ["Sessions"];

export const signInOp = defineOperation({
  operationId: "signIn",
  method: "POST",
  path: "/session",
  summary: "Sign in as an individual user",
  description:
    "Checks the password (argon2id) and sets the HttpOnly, SameSite=Strict session cookie (`fos_session`; `__Host-fos_session`, Secure, whenever the service is served over https). The session is in one organization: `organization_id` if given (an organization the account is not an active member of is 404 `not_found`, answered only after a right password), else the one the account used last. An invitation not yet accepted gives no way in. From another origin the body must be `application/json` (else 415 `unsupported_media_type`: no login CSRF). Failed attempts are throttled per email and per client address (429 with Retry-After).",
  tags,
  auth: "none",
  body: ZLoginInput,
  bodyExample: { email: "owner@example.com", password: "correct horse battery staple" },
  success: { status: 200, description: "Signed in; the session cookie is set", schema: ZSession },
  errors: [401, 404, 429],
});

export const getSessionOp = defineOperation({
  operationId: "getSession",
  method: "GET",
  path: "/session",
  summary: "Current user and organization",
  description:
    "Accepts only an issuer session; an API key is refused with 401. `organizations` lists every organization the account is an active member of, to switch with `POST /session/organization`.",
  tags,
  auth: "issuer_session",
  success: {
    status: 200,
    description: "The current session",
    schema: ZSessionDetail,
    example: { ...sessionExample, organizations: [{ id: sessionExample.organization.id, name: "Acme GmbH", role: "member" }] },
  },
});

export const signOutOp = defineOperation({
  operationId: "signOut",
  method: "DELETE",
  path: "/session",
  summary: "Sign out (clears the issuer session)",
  tags,
  auth: "issuer_session",
  success: { status: 204, description: "Signed out" },
});

export const changePasswordOp = defineOperation({
  operationId: "changePassword",
  method: "POST",
  path: "/session/password",
  summary: "Change the password; revokes every session of the user",
  description:
    "Failed checks of `current_password` count towards the throttle of failed sign-ins of the user's email (429 with Retry-After once it is reached, whatever the password).",
  tags,
  auth: "issuer_session",
  idempotent: "optional",
  body: ZPasswordChangeInput,
  success: { status: 204, description: "Password changed; all sessions of the user are revoked" },
  errors: [429],
});

export const switchOrganizationOp = defineOperation({
  operationId: "switchOrganization",
  method: "POST",
  path: "/session/organization",
  summary: "Switch to another organization of the account",
  description:
    "Starts a new session in `organization_id` (same sign-in method) and ends the calling one; the answer and cookie are those of `POST /session`. An organization the account is not an active member of is 404 `not_found`. Accepts only an issuer session; an API key is refused with 401.",
  tags,
  auth: "issuer_session",
  body: ZSwitchOrganizationInput,
  bodyExample: { organization_id: "1f2e3d4c-5b6a-4798-8877-665544332211" },
  success: { status: 200, description: "Switched; the new session cookie is set", schema: ZSession, example: sessionExample },
  errors: [404],
});

export const acceptInvitationOp = defineOperation({
  operationId: "acceptInvitation",
  method: "POST",
  path: "/invitations/{id}/accept",
  summary: "Accept an invitation (the invitation page posts the link's token)",
  description:
    "No credential needed: `token` is the fragment of the invitation link. For an email with no account, `password` (at least 12 characters, else 422) becomes the new account's password. For an email that has an account, `password` must be its current password (a wrong one is 401 `unauthenticated`, counted by sign-in throttling: 429 once reached), or the request carries that account's issuer session and no `password`. An unknown id or a wrong token is 404 `not_found`; an invitation used, withdrawn, reissued or past its 7 days is 410 `invitation_expired`. Single sign-on from the invitation page with the invited, verified email accepts too. Then the membership is active and the answer is `POST /session`'s, with its cookie, in the inviting organization. The Idempotency-Key is scoped to the token; a replay answers the stored body without a new cookie.",
  tags,
  auth: "none",
  idempotent: "required",
  params: ZIdParams,
  body: ZInvitationAcceptInput,
  bodyExample: { token: "q3Xk0bV7mZ1rT9wYc2LpA8sN4dF6gH5jK0eR3uI7oPw", password: "a-password-of-my-own" },
  success: { status: 200, description: "Accepted and signed in; the session cookie is set", schema: ZSession, example: sessionExample },
  errors: [401, 410, 429],
});

export const completePasswordResetOp = defineOperation({
  operationId: "completePasswordReset",
  method: "POST",
  path: "/password-resets/{id}/complete",
  summary: "Set a new password with a one-time reset link",
  description:
    "No credential needed: `token` is the fragment of the reset link (`POST /members/{id}/password-reset` or the operator's `npm run admin -- reset-password`). Sets `new_password` (at least 12 characters) and ends every session of the account. An unknown id or a wrong token is 404 `not_found`; a link used, past its hour, or made by an organization the account no longer belongs to alone is 410 `invitation_expired`.",
  tags,
  auth: "none",
  idempotent: "required",
  params: ZIdParams,
  body: ZPasswordResetCompleteInput,
  bodyExample: { token: "Zt4Qm8rV1nK6pW2xY7cB3dF9gH0jL5sA1eR4uI8oPq", new_password: "a-new-password-of-mine" },
  success: { status: 204, description: "Password set; every session of the account has ended" },
  errors: [410],
});

export const sessionOperations = [signInOp, getSessionOp, signOutOp, changePasswordOp, switchOrganizationOp, acceptInvitationOp, completePasswordResetOp];
