import { handle } from "@/lib/http/handle";
import { changePasswordOp } from "@/lib/operations/sessions";
import { changePassword } from "@/lib/auth/change-password";
import { countPasswordCheck } from "@/lib/auth/count-password-check";
import { sessionSetCookies } from "@/lib/auth/session-cookie";
import type { UserPrincipal } from "@/lib/auth/principal";
import { notServed } from "@/lib/http/not-served";

// POST /session/password – change password, revoking every session of the user; the check
// of current_password is throttled with sign-in's (429 after too many failures)
export const POST = handle(
  changePasswordOp,
  async ({ req, principal, body, tx, attempt }) => {
    if (!attempt) throw new Error("countAttempt did not run");
    await changePassword(tx, { principal, attempt, ...body });
    return { status: 204, cookies: sessionSetCookies(req, "", 0) };
  },
  // (the operation's auth is issuer_session: the principal is a user)
  {
    countAttempt: ({ principal }) =>
      countPasswordCheck({ email: (principal as UserPrincipal).email, message: "too many failed password attempts; try again later" }),
  },
);

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
