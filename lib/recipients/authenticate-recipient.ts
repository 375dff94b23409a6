import { db } from "@/lib/db";
import { sha256Hex } from "@/lib/crypto";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import { assertUsable } from "@/lib/payment-requests/get-payment-request";
import { readRecipientCookie, type RecipientFamily } from "@/lib/recipients/session-cookie";

// The `authenticate` option of handle() for recipient endpoints: the session cookie of the
// family (lib/recipients/session-cookie.ts) -> a RecipientPrincipal. Every call re-checks
// the hosted payment request, so revoking or expiry ends every session at once:
//   no / unknown / expired session                      -> 401 unauthenticated
//   request-scoped family: session of another request   -> 401 unauthenticated
//   link reissued since the session was opened          -> 401 unauthenticated
//     (reissue deletes the old sessions; the issue number is checked as well)
//   request revoked                                     -> 410 payment_request_revoked
//   request expired                                     -> 410 payment_request_expired
// A malformed {request} in the path is 404 like every malformed id.
export function authenticateRecipient(family: RecipientFamily) {
  return async (req: Request, rawParams: Record<string, string>): Promise<RecipientPrincipal> => {
    let requestId: string | undefined;
    if (family === "context") {
      requestId = rawParams.request;
      if (!requestId || !isUuid(requestId)) throw new AppError("not_found", "payment request not found");
      requestId = requestId.toLowerCase();
    }
    const token = readRecipientCookie(req, family, requestId);
    if (!token) throw new AppError("unauthenticated", "no recipient session: open the secure link again");
    return resolveRecipientSession(token, requestId);
  };
}

export async function resolveRecipientSession(token: string, requestId?: string, now = new Date()): Promise<RecipientPrincipal> {
  const ended = () => new AppError("unauthenticated", "the recipient session is unknown or has ended: open the secure link again");
  const session = await db().recipientSession.findUnique({ where: { tokenHash: sha256Hex(token) } });
  if (!session || session.expiresAt.getTime() <= now.getTime()) throw ended();
  if (requestId !== undefined && session.paymentRequestId !== requestId) throw ended();
  const pr = await db().paymentRequest.findFirst({ where: { id: session.paymentRequestId, organizationId: session.organizationId } });
  if (!pr || pr.issueNumber !== session.issueNumber) throw ended();
  assertUsable(pr, now);
  return {
    kind: "recipient",
    organizationId: session.organizationId,
    paymentRequestId: pr.id,
    obligationId: pr.obligationId,
    sessionId: session.id,
  };
}
