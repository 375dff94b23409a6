import { handle } from "@/lib/http/handle";
import { endOtherSessionsOp, listOwnSessionsOp } from "@/lib/operations/admin";
import { listOwnSessions } from "@/lib/administration/list-own-sessions";
import { endOtherSessions } from "@/lib/administration/end-other-sessions";
import { notServed } from "@/lib/http/not-served";

// GET /session/sessions – the caller's active sessions
export const GET = handle(listOwnSessionsOp, async ({ tx, principal }) => {
  if (principal.kind !== "user") throw new Error("unreachable");
  return {
    status: 200,
    body: await listOwnSessions(tx, { organizationId: principal.organizationId, userId: principal.userId, sessionId: principal.sessionId }),
  };
});

// DELETE /session/sessions – sign out everywhere else
export const DELETE = handle(endOtherSessionsOp, async ({ tx, principal }) => {
  if (principal.kind !== "user") throw new Error("unreachable");
  await endOtherSessions(tx, { userId: principal.userId, sessionId: principal.sessionId });
  return { status: 204 };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { POST, PUT, PATCH } = notServed("GET", "DELETE");
