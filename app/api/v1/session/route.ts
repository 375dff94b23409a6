import { handle } from "@/lib/http/handle";
import { getSessionOp, signInOp, signOutOp } from "@/lib/operations/sessions";
import { sessionSetCookies } from "@/lib/auth/session-cookie";
import { signIn } from "@/lib/auth/sign-in";
import { describeSession } from "@/lib/auth/describe-session";
import { signOut } from "@/lib/auth/sign-out";
import { notServed } from "@/lib/http/not-served";

// POST /session – sign in
export const POST = handle(
  signInOp,
  async ({ req, tx, body, clientIp }) => {
    const r = await signIn(tx, { body, clientIp, userAgent: req.headers.get("user-agent") ?? "" });
    return { status: 200, body: r.body, cookies: sessionSetCookies(req, r.token, (r.expiresAt.getTime() - Date.now()) / 1000) };
  },
  { withoutTransaction: true },
);

// GET /session – current identity and the account's organizations
export const GET = handle(getSessionOp, async ({ tx, principal }) => ({ status: 200, body: await describeSession(tx, { principal }) }));

// DELETE /session – sign out
export const DELETE = handle(signOutOp, async ({ req, principal, tx }) => {
  await signOut(tx, { principal });
  return { status: 204, cookies: sessionSetCookies(req, "", 0) };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { PUT, PATCH } = notServed("GET", "POST", "DELETE");
