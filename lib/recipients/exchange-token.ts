import { sql, sqlLater, type Tx } from "@/lib/db/client";
import { randomToken } from "@/lib/crypto";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import type { TRecipientSession } from "@/lib/schemas/recipient";
import { mutateObligation } from "@/lib/obligations/mutate-obligation";
import { assertUsable } from "@/lib/payment-requests/get-payment-request";
import { routedToken, routedTokenHash, tokenLookup, type TokenLookup } from "@/lib/auth/token-routing";
import { recipientSessionTtlMs } from "@/lib/recipients/session-cookie";

type RequestRow = {
  id: string;
  organizationId: string;
  obligationId: string;
  issueNumber: number;
  expiresAt: Date;
  revokedAt: Date | null;
  firstOpenedAt: Date | null;
};

// A payment request by its link token's hash, within the organization the token's route names
// (lib/auth/token-routing.ts; a link of the old form: by the hash alone). The exchange locks it.
const REQUEST_BY_TOKEN = `SELECT id, organization_id AS "organizationId", obligation_id AS "obligationId", issue_number AS "issueNumber",
    expires_at AS "expiresAt", revoked_at AS "revokedAt", first_opened_at AS "firstOpenedAt"
  FROM payment_requests WHERE token_hash = $1`;
const REQUEST_BY_ROUTED_TOKEN = `${REQUEST_BY_TOKEN} AND organization_id = $2::uuid`;

async function requestByToken(tx: Tx, token: string, lock: boolean): Promise<RequestRow | undefined> {
  const found: TokenLookup | undefined = tokenLookup(token);
  if (!found) return undefined;
  const text = `${found.organizationId === undefined ? REQUEST_BY_TOKEN : REQUEST_BY_ROUTED_TOKEN}${lock ? " FOR UPDATE" : ""}`;
  const [pr] = await sql<RequestRow>(tx, text, found.organizationId === undefined ? [found.hash] : [found.hash, found.organizationId]);
  return pr;
}

const unknownLink = () => new AppError("unauthenticated", "this link is not valid: check that you opened the whole link");

// POST /recipient/session and /recipient/contexts/{request}/session: exchanges the link
// token (from the URL fragment) for a recipient session.
//  - the token is looked up by its SHA-256 (payment_requests.token_hash); unknown -> 401;
//    for the request-scoped family it must belong to {request} (else 401, never saying why);
//  - revoked -> 410 payment_request_revoked, expired -> 410 payment_request_expired;
//  - a recipient_sessions row (token stored as SHA-256 only) tied to the request's current
//    issue number, so a reissued link ends it;
//  - event obligation.link_opened through mutateObligation (version + 1), moving
//    OBLIGATION_CAPTURED -> PAYMENT_REQUESTED; the first open sets first_opened_at.
// The payment request and the obligation rows are locked (in that order, the order revoke
// and reissue take them) so concurrent opens serialize instead of failing on the version.
// The session token goes only into the cookie, never into the (stored) response body.
// `requestId`: the request-scoped family names the request in the path; the token must be its own.
// `language`: the page language the payer uses (reminders are written in it, lib/reminders).
export type ExchangeRecipientTokenInput = { token: string; requestId?: string; now?: Date; language?: string };

export async function exchangeRecipientToken(
  tx: Tx,
  input: ExchangeRecipientTokenInput,
): Promise<{ body: TRecipientSession; sessionToken: string; paymentRequestId: string }> {
  const now = input.now ?? new Date();
  const pr = await requestByToken(tx, input.token, true);
  if (!pr) throw unknownLink();
  if (input.requestId !== undefined && pr.id !== input.requestId.toLowerCase()) throw unknownLink();
  assertUsable(pr, now);

  const ob = await sql<{ version: number }>(tx, "SELECT version FROM obligations WHERE id = $1::uuid AND organization_id = $2::uuid FOR UPDATE", [
    pr.obligationId,
    pr.organizationId,
  ]);
  if (ob.length !== 1) throw new Error(`payment request ${pr.id} has no obligation`);

  const session = await createRecipientSession(tx, pr, now);
  const principal: RecipientPrincipal = {
    kind: "recipient",
    organizationId: pr.organizationId,
    paymentRequestId: pr.id,
    obligationId: pr.obligationId,
    sessionId: session.id,
  };
  if (input.language)
    await sqlLater(tx, "UPDATE payment_requests SET payer_language = $3 WHERE id = $1::uuid AND organization_id = $2::uuid", [
      pr.id,
      pr.organizationId,
      input.language,
    ]);
  const firstOpen = pr.firstOpenedAt === null;
  if (firstOpen) {
    await sqlLater(
      tx,
      "UPDATE payment_requests SET first_opened_at = $3::timestamptz WHERE id = $1::uuid AND organization_id = $2::uuid AND first_opened_at IS NULL",
      [pr.id, pr.organizationId, now.toISOString()],
    );
  }
  await mutateObligation(tx, {
    organizationId: pr.organizationId,
    obligationId: pr.obligationId,
    expectedVersion: Number(ob[0].version),
    principal,
    eventType: "obligation.link_opened",
    apply: (o) => (o.status === "OBLIGATION_CAPTURED" ? { status: "PAYMENT_REQUESTED" } : {}),
    detail: { payment_request_id: pr.id, issue_number: pr.issueNumber, first_open: firstOpen },
  });
  return { body: { invoice_id: pr.obligationId, request_id: pr.id }, sessionToken: session.token, paymentRequestId: pr.id };
}

// A replayed exchange (same Idempotency-Key and token) gets the stored body, which never
// holds the cookie; so that the caller still ends up with a working cookie, a fresh
// session is issued when the link is still usable. No event is recorded (the open was
// recorded by the first exchange). Returns undefined when no session can be issued (the
// link was revoked, reissued or expired since): the next recipient call says why.
export async function sessionForReplayedExchange(
  tx: Tx,
  input: ExchangeRecipientTokenInput,
): Promise<{ sessionToken: string; paymentRequestId: string } | undefined> {
  const now = input.now ?? new Date();
  const pr = await requestByToken(tx, input.token, false);
  if (!pr || (input.requestId !== undefined && pr.id !== input.requestId.toLowerCase())) return undefined;
  try {
    assertUsable(pr, now);
  } catch {
    return undefined;
  }
  const session = await createRecipientSession(tx, pr, now);
  return { sessionToken: session.token, paymentRequestId: pr.id };
}

async function createRecipientSession(tx: Tx, pr: RequestRow, now: Date): Promise<{ id: string; token: string }> {
  const id = newId();
  const secret = randomToken(32);
  // Held back and sent with the transaction's next statement (lib/db/client.ts, sqlLater); the
  // payment request is locked and the token's hash is new, so nothing after it depends on
  // its outcome, and a failure fails the transaction. Outside a transaction it runs at once.
  await sqlLater(
    tx,
    `INSERT INTO recipient_sessions (id, organization_id, payment_request_id, issue_number, token_hash, created_at, expires_at)
     VALUES ($1::uuid, $2::uuid, $3::uuid, $4::int, $5, $6::timestamptz, $7::timestamptz)`,
    [
      id,
      pr.organizationId,
      pr.id,
      pr.issueNumber,
      routedTokenHash("", secret),
      now.toISOString(),
      new Date(now.getTime() + recipientSessionTtlMs()).toISOString(),
    ],
  );
  return { id, token: routedToken("", pr.organizationId, secret) };
}
