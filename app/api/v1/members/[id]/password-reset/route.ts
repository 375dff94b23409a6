import { handle } from "@/lib/http/handle";
import { errorBody } from "@/lib/errors";
import { createPasswordResetOp } from "@/lib/operations/admin";
import { createPasswordReset } from "@/lib/administration/create-password-reset";
import { notServed } from "@/lib/http/not-served";

// POST /members/{id}/password-reset – a one-time reset link for an account only this organization holds, shown once
export const POST = handle(createPasswordResetOp, async ({ tx, principal, params }) => {
  const r = await createPasswordReset(tx, { organizationId: principal.organizationId, principal, ...params });
  const replay = errorBody("duplicate", `a password-reset link for member ${params.id} was already created with this Idempotency-Key; it is shown only once`);
  return { status: 201, body: r, stored: { status: 409, body: replay } };
});

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
