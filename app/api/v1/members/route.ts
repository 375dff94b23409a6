import { handle } from "@/lib/http/handle";
import { addMemberOp, listMembersOp } from "@/lib/operations/admin";
import { listMembers } from "@/lib/administration/list-members";
import { addMember } from "@/lib/administration/add-member";
import { notServed } from "@/lib/http/not-served";

// GET /members – members with their roles
export const GET = handle(listMembersOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await listMembers(tx, { organizationId: principal.organizationId, ...query }),
}));

// POST /members – add a member with a password or identity-provider sign-in
export const POST = handle(addMemberOp, async ({ tx, principal, body }) => ({
  status: 201,
  body: await addMember(tx, { organizationId: principal.organizationId, principal, ...body }),
}));

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { PUT, PATCH, DELETE } = notServed("GET", "POST");
