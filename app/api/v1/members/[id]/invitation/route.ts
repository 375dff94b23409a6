import { handle } from "@/lib/http/handle";
import { errorBody } from "@/lib/errors";
import { reissueInvitationOp } from "@/lib/operations/admin";
import { reissueInvitation } from "@/lib/administration/reissue-invitation";
import { notServed } from "@/lib/http/not-served";

// POST /members/{id}/invitation – a new invitation link (the old one dies), shown once
export const POST = handle(reissueInvitationOp, async ({ tx, principal, params }) => {
  const r = await reissueInvitation(tx, { organizationId: principal.organizationId, principal, ...params });
  const replay = errorBody("duplicate", `a link for member ${r.member.id} was already issued with this Idempotency-Key; it is shown only once`);
  return { status: 201, body: r, stored: { status: 409, body: replay } };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
