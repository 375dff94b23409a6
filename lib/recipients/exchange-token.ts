import type { Tx } from "@/lib/db/client";
import { type Query, statement } from "@/lib/db/query";
import { randomToken } from "@/lib/crypto";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import type { TRecipientSession } from "@/lib/schemas/recipient";
import { mutateObligation } from "@/lib/obligations/mutate-obligation";
import { assertUsable } from "@/lib/payment-requests/get-payment-request";
import { routedToken, routedTokenHash, tokenLookup, type TokenLookup } from "@/lib/auth/token-routing";
import { recipientSessionTtlMs } from "@/lib/recipients/session-cookie";

// A payment request by its link token's hash, within the organization the token's route names
// (lib/auth/token-routing.ts); the exchange locks it. A link of the old form (no route) is first
// found by its hash alone, without a lock (every shard on Citus, old links only), and then read
// as a routed one: a locking read must name its organization on Citus.
const requestColumns = (q: Query) =>
  q
    .selectFrom("payment_requests")
    .select([
      "id",
      "organization_id as organizationId",
      "obligation_id as obligationId",
      "issue_number as issueNumber",
      "expires_at as expiresAt",
      "revoked_at as revokedAt",
      "first_opened_at as firstOpenedAt",
    ]);
type ByToken = { hash: string; organizationId: string };
const requestByHash = statement((q, p: { hash: string }) => requestColumns(q).where("token_hash", "=", p.hash));
const requestByRoutedToken = statement((q, p: ByToken) => requestColumns(q).where("token_hash", "=", p.hash).where("organization_id", "=", p.organizationId));
const lockedRequestByRoutedToken = statement((q, p: ByToken) =>
  requestColumns(q).where("token_hash", "=", p.hash).where("organization_id", "=", p.organizationId).forUpdate(),
);

type RequestRow = Awaited<ReturnType<typeof requestByHash.rows>>[number];

async function requestByToken(tx: Tx, token: string, lock: boolean): Promise<RequestRow | undefined> {
  const found: TokenLookup | undefined = tokenLookup(token);
  if (!found) return undefined;
  const { hash } = found;
  let { organizationId } = found;
  if (organizationId === undefined) {
    const [old] = await requestByHash.rows(tx, { hash });
    if (!old || !lock) return old;
    organizationId = old.organizationId;
  }
  const [pr] = await (lock ? lockedRequestByRoutedToken : requestByRoutedToken).rows(tx, { hash, organizationId });
  return pr;
}

// The obligation's version, its row locked (after the payment request's).
const lockedObligation = statement((q, p: { organizationId: string; obligationId: string }) =>
  q.selectFrom("obligations").select("version").where("id", "=", p.obligationId).where("organization_id", "=", p.organizationId).forUpdate(),
);

// Held-back writes of the exchange (`.later` of lib/db/query.ts), each naming the organization.
type RequestKey = { id: string; organizationId: string };
const setPayerLanguage = statement((q, p: RequestKey & { language: string }) =>
  q.updateTable("payment_requests").set({ payer_language: p.language }).where("id", "=", p.id).where("organization_id", "=", p.organizationId),
);
const setFirstOpened = statement((q, p: RequestKey & { now: string }) =>
  q
    .updateTable("payment_requests")
    .set({ first_opened_at: p.now })
    .where("id", "=", p.id)
    .where("organization_id", "=", p.organizationId)
    .where("first_opened_at", "is", null),
);
const insertSession = statement(
  (q, p: { id: string; organizationId: string; paymentRequestId: string; issueNumber: number; tokenHash: string; createdAt: string; expiresAt: string }) =>
    q.insertInto("recipient_sessions").values({
      id: p.id,
      organization_id: p.organizationId,
      payment_request_id: p.paymentRequestId,
      issue_number: p.issueNumber,
      token_hash: p.tokenHash,
      created_at: p.createdAt,
      expires_at: p.expiresAt,
    }),
);

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

  const ob = await lockedObligation.rows(tx, { organizationId: pr.organizationId, obligationId: pr.obligationId });
  if (ob.length !== 1) throw new Error(`payment request ${pr.id} has no obligation`);

  const session = await createRecipientSession(tx, pr, now);
  const principal: RecipientPrincipal = {
    kind: "recipient",
    organizationId: pr.organizationId,
    paymentRequestId: pr.id,
    obligationId: pr.obligationId,
    sessionId: session.id,
  };
  if (input.language) await setPayerLanguage.later(tx, { id: pr.id, organizationId: pr.organizationId, language: input.language });
  const firstOpen = pr.firstOpenedAt === null;
  if (firstOpen) await setFirstOpened.later(tx, { id: pr.id, organizationId: pr.organizationId, now: now.toISOString() });
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
  // Held back and sent with the transaction's next statement (`.later`, lib/db/query.ts); the
  // payment request is locked and the token's hash is new, so nothing after it depends on
  // its outcome, and a failure fails the transaction. Outside a transaction it runs at once.
  await insertSession.later(tx, {
    id,
    organizationId: pr.organizationId,
    paymentRequestId: pr.id,
    issueNumber: pr.issueNumber,
    tokenHash: routedTokenHash("", secret),
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + recipientSessionTtlMs()).toISOString(),
  });
  return { id, token: routedToken("", pr.organizationId, secret) };
}
