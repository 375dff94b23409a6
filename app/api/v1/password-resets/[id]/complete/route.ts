import { handle } from "@/lib/http/handle";
import { sha256Hex } from "@/lib/crypto";
import { tokenOrganization } from "@/lib/auth/token-routing";
import { ZPasswordResetCompleteInput } from "@/lib/schemas/sessions";
import { completePasswordResetOp } from "@/lib/operations/sessions";
import { completePasswordReset } from "@/lib/identity/complete-password-reset";
import { notServed } from "@/lib/http/not-served";

// POST /password-resets/{id}/complete – set a new password with the link's token; every session of the account ends
export const POST = handle(
  completePasswordResetOp,
  async ({ tx, params, body }) => {
    await completePasswordReset(tx, { id: params.id, body });
    return { status: 204 };
  },
  // (auth none: the Idempotency-Key is scoped to the reset link's id, in its token's organization)
  {
    idempotencyScope: async (_req, body, rawParams) => ({
      scope: `password-reset:${sha256Hex(rawParams.id ?? "")}`,
      organizationId: tokenOrganization(ZPasswordResetCompleteInput.safeParse(body).data?.token),
    }),
  },
);

// The methods this path does not serve: the 405 envelope (lib/http/not-served.ts).
export const { GET, HEAD, PUT, PATCH, DELETE } = notServed("POST");
