import { db, sql } from "@/lib/db/client";
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
  const [session] =
    found.organizationId === undefined
      ? await sql<SessionRow>(db(), SESSION_SQL, [found.hash])
      : await sql<SessionRow>(db(), ROUTED_SESSION_SQL, [found.hash, found.organizationId]);
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
// A session token names its organization (lib/auth/token-routing.ts): ROUTED_SESSION_SQL.
const SESSION_SQL = `SELECT s.id AS "sessionId", s.organization_id AS "organizationId", s.payment_request_id AS "paymentRequestId",
    s.issue_number AS "sessionIssueNumber", s.expires_at AS "sessionExpiresAt",
    pr.id, pr.obligation_id AS "obligationId", pr.issue_number AS "issueNumber", pr.expires_at AS "expiresAt", pr.revoked_at AS "revokedAt"
  FROM recipient_sessions s
  JOIN payment_requests pr ON pr.id = s.payment_request_id AND pr.organization_id = s.organization_id
  WHERE s.token_hash = $1`;
const ROUTED_SESSION_SQL = `${SESSION_SQL} AND s.organization_id = $2::uuid`;

type SessionRow = PaymentRequestRow & {
  sessionId: string;
  organizationId: string;
  paymentRequestId: string;
  sessionIssueNumber: number;
  sessionExpiresAt: Date;
};
