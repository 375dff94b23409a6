import { db } from "@/lib/db/client";
import { sha256Hex } from "@/lib/crypto";
import { tokenOrganization } from "@/lib/auth/token-routing";
import { AppError } from "@/lib/errors";
import type { HandleOptions } from "@/lib/http/handle";
import { countPasswordCheck } from "@/lib/auth/count-password-check";
import { findInvitation } from "@/lib/identity/find-invitation";
import { hasAccount } from "@/lib/identity/has-account";
import { ZInvitationAcceptInput } from "@/lib/schemas/sessions";

const NOT_COUNTED = { release: async () => {} };

// handle() options of POST /invitations/{id}/accept (auth none): the Idempotency-Key is
// scoped to the link token (its SHA-256; the organization its route's), and a check of an existing account's password
// is counted against sign-in's throttle before the transaction opens, so that a wrong
// password stays counted although its refusal rolls the transaction back.
export const acceptHandleOptions: HandleOptions = {
  idempotencyScope: async (_req, body) => {
    const r = ZInvitationAcceptInput.safeParse(body);
    return {
      scope: `invitation:${sha256Hex(r.success ? r.data.token : JSON.stringify(body ?? null))}`,
      organizationId: tokenOrganization(r.success ? r.data.token : undefined),
    };
  },
  countAttempt: async ({ body, params, clientIp }) => {
    const b = body as { token: string; password?: string };
    const id = (params as { id: string }).id;
    if (b.password === undefined) return NOT_COUNTED;
    try {
      const inv = await findInvitation(db(), { id, token: b.token });
      if (!(await hasAccount(db(), { userId: inv.userId }))) return NOT_COUNTED;
      return await countPasswordCheck({ email: inv.user.email, clientIp, message: "too many failed password attempts; try again later" });
    } catch (err) {
      // a bad link is answered by the handler itself (404/410)
      if (err instanceof AppError && err.code !== "rate_limited") return NOT_COUNTED;
      throw err;
    }
  },
};
