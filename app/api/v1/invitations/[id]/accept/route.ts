import { handle } from "@/lib/http/handle";
import { acceptInvitationOp } from "@/lib/operations/sessions";
import { acceptInvitation } from "@/lib/identity/accept-invitation";
import { acceptHandleOptions } from "@/lib/identity/accept-options";
import { requestSessionToken, sessionSetCookies } from "@/lib/auth/session-cookie";
import { notServed } from "@/lib/http/not-served";

// POST /invitations/{id}/accept – accept with a new password, the account's own password or its session; signs in
export const POST = handle(
  acceptInvitationOp,
  async ({ req, tx, params, body, attempt }) => {
    const userAgent = req.headers.get("user-agent") ?? "";
    const r = await acceptInvitation(tx, { ...params, ...body, sessionToken: requestSessionToken(req), userAgent, attempt });
    return { status: 200, body: r.body, cookies: sessionSetCookies(req, r.token, (r.expiresAt.getTime() - Date.now()) / 1000) };
  },
  acceptHandleOptions,
);

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
