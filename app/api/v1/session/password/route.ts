import { handle } from "@/lib/http/handle";
import { changePasswordOp } from "@/lib/operations/sessions";
import { SESSION_COOKIE, changePassword } from "@/lib/auth/sessions";
import { isHttps, serializeCookie } from "@/lib/http/cookies";
import { notServed } from "@/lib/http/not-served";

// POST /session/password – change password, revoking every session of the user
export const POST = handle(changePasswordOp, async ({ req, principal, body, tx }) => {
  await changePassword(tx, { principal, ...body });
  return { status: 204, cookies: [serializeCookie(SESSION_COOKIE, "", { path: "/", sameSite: "Strict", secure: isHttps(req), maxAgeSeconds: 0 })] };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
