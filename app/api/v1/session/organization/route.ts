import { handle } from "@/lib/http/handle";
import { switchOrganizationOp } from "@/lib/operations/sessions";
import { switchOrganization } from "@/lib/auth/switch-organization";
import { sessionSetCookies } from "@/lib/auth/session-cookie";
import { notServed } from "@/lib/http/not-served";

// POST /session/organization – a new session in another organization of the account; the calling one ends
export const POST = handle(switchOrganizationOp, async ({ req, tx, principal, body }) => {
  const r = await switchOrganization(tx, { principal, userAgent: req.headers.get("user-agent") ?? "", ...body });
  return { status: 200, body: r.body, cookies: sessionSetCookies(req, r.token, (r.expiresAt.getTime() - Date.now()) / 1000) };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
