import { defineOperation } from "@/lib/http/operation";
import { ZLoginInput, ZPasswordChangeInput, ZSession } from "@/lib/schemas/sessions";

const tags = ["Sessions"];

export const signInOp = defineOperation({
  operationId: "signIn",
  method: "POST",
  path: "/session",
  summary: "Sign in as an individual user",
  description:
    "Checks the password (argon2id) and sets the HttpOnly, SameSite=Strict session cookie (`fos_session`; `__Host-fos_session`, Secure, whenever the service is served over https). From another origin the body must be `application/json` (else 415 `unsupported_media_type`: no login CSRF). Failed attempts are throttled per email and per client address (429 with Retry-After).",
  tags,
  auth: "none",
  body: ZLoginInput,
  bodyExample: { email: "owner@example.com", password: "correct horse battery staple" },
  success: { status: 200, description: "Signed in; the session cookie is set", schema: ZSession },
  errors: [401, 429],
});

export const getSessionOp = defineOperation({
  operationId: "getSession",
  method: "GET",
  path: "/session",
  summary: "Current user and organization",
  description: "Accepts only an issuer session; an API key is refused with 401.",
  tags,
  auth: "issuer_session",
  success: { status: 200, description: "The current session", schema: ZSession },
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

export const sessionOperations = [signInOp, getSessionOp, signOutOp, changePasswordOp];
