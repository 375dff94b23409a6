import { handle } from "@/lib/http/handle";
import { changeMemberRoleOp, removeMemberOp } from "@/lib/operations/admin";
import { changeMemberRole } from "@/lib/administration/change-member-role";
import { removeMember } from "@/lib/administration/remove-member";
import { notServed } from "@/lib/http/not-served";

// PATCH /members/{id} – change the role (effective on the member's next request)
export const PATCH = handle(changeMemberRoleOp, async ({ tx, principal, params, body }) => ({
  status: 200,
  body: await changeMemberRole(tx, { organizationId: principal.organizationId, principal, ...params, ...body }),
}));

// DELETE /members/{id} – remove the member and end their sessions
export const DELETE = handle(removeMemberOp, async ({ tx, principal, params }) => {
  await removeMember(tx, { organizationId: principal.organizationId, principal, ...params });
  return { status: 204 };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, POST, PUT } = notServed("PATCH", "DELETE");
