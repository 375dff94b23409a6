import { handle } from "@/lib/http/handle";
import { errorBody } from "@/lib/errors";
import { addMemberOp, listMembersOp } from "@/lib/operations/admin";
import { listMembers } from "@/lib/administration/list-members";
import { addMember } from "@/lib/administration/add-member";
import { notServed } from "@/lib/http/not-served";

// GET /members – members with their roles
export const GET = handle(listMembersOp, async ({ tx, principal, query }) => ({
  status: 200,
  body: await listMembers(tx, { organizationId: principal.organizationId, ...query }),
}));

// POST /members – invite a member; the link is shown once: a replay of the Idempotency-Key gets 409
export const POST = handle(addMemberOp, async ({ tx, principal, body }) => {
  const r = await addMember(tx, { organizationId: principal.organizationId, principal, ...body });
  const replay = errorBody("duplicate", `member ${r.member.id} was already invited with this Idempotency-Key; its link is shown only once`);
  return { status: 201, body: r, stored: { status: 409, body: replay } };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { PUT, PATCH, DELETE } = notServed("GET", "POST");
