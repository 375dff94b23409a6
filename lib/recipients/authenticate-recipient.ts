import { db } from "@/lib/db/client";
import { type Query, statement } from "@/lib/db/query";
import { tokenLookup } from "@/lib/auth/token-routing";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import { assertUsable } from "@/lib/payment-requests/get-payment-request";
import type { PaymentRequestRow } from "@/lib/payment-requests/view";
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
  const found = tokenLookup(token);
  if (!found) throw ended();
  const { hash, organizationId } = found;
  const [session] = organizationId === undefined ? await sessionByHash.rows(db(), { hash }) : await sessionByRoutedToken.rows(db(), { hash, organizationId });
  if (!session || session.sessionExpiresAt.getTime() <= now.getTime()) throw ended();
  if (requestId !== undefined && session.paymentRequestId !== requestId) throw ended();
  if (session.issueNumber !== session.sessionIssueNumber) throw ended();
  const pr: PaymentRequestRow = session;
  assertUsable(pr, now);
  return {
    kind: "recipient",
    organizationId: session.organizationId,
    paymentRequestId: pr.id,
    obligationId: pr.obligationId,
    sessionId: session.sessionId,
  };
}

// The session by its token's hash with its payment request, in one statement (every request
// of the hosted page starts here); a session whose request is gone has no row, and is ended.
// A session token names its organization (lib/auth/token-routing.ts): sessionByRoutedToken
// (one shard on Citus); one of the old form is found by its hash alone (every shard, no lock).
const sessionWithRequest = (q: Query) =>
  q
    .selectFrom("recipient_sessions as s")
    .innerJoin("payment_requests as pr", (j) => j.onRef("pr.id", "=", "s.payment_request_id").onRef("pr.organization_id", "=", "s.organization_id"))
    .select([
      "s.id as sessionId",
      "s.organization_id as organizationId",
      "s.payment_request_id as paymentRequestId",
      "s.issue_number as sessionIssueNumber",
      "s.expires_at as sessionExpiresAt",
      "pr.id",
      "pr.obligation_id as obligationId",
      "pr.issue_number as issueNumber",
      "pr.expires_at as expiresAt",
      "pr.revoked_at as revokedAt",
    ]);
const sessionByHash = statement((q, p: { hash: string }) => sessionWithRequest(q).where("s.token_hash", "=", p.hash));
const sessionByRoutedToken = statement((q, p: { hash: string; organizationId: string }) =>
  sessionWithRequest(q).where("s.token_hash", "=", p.hash).where("s.organization_id", "=", p.organizationId),
);
