import type { Tx } from "@/lib/db";
import { randomToken, sha256Hex } from "@/lib/crypto";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import type { TRecipientSession } from "@/lib/schemas/recipient";
import { mutateObligation } from "@/lib/obligations/mutate-obligation";
import { assertUsable } from "@/lib/payment-requests/get-payment-request";
import { tokenHash } from "@/lib/payment-requests/tokens";
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
export type ExchangeRecipientTokenInput = { token: string; requestId?: string; now?: Date };

export async function exchangeRecipientToken(
  tx: Tx,
  input: ExchangeRecipientTokenInput,
): Promise<{ body: TRecipientSession; sessionToken: string; paymentRequestId: string }> {
  const now = input.now ?? new Date();
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM payment_requests WHERE token_hash = ${tokenHash(input.token)} FOR UPDATE`;
  if (locked.length !== 1) throw unknownLink();
  const pr = await tx.paymentRequest.findUniqueOrThrow({ where: { id: locked[0].id } });
  if (input.requestId !== undefined && pr.id !== input.requestId.toLowerCase()) throw unknownLink();
  assertUsable(pr, now);

  const ob = await tx.$queryRaw<{ version: number }[]>`
    SELECT version FROM obligations WHERE id = ${pr.obligationId}::uuid AND organization_id = ${pr.organizationId}::uuid FOR UPDATE`;
  if (ob.length !== 1) throw new Error(`payment request ${pr.id} has no obligation`);

  const session = await createRecipientSession(tx, pr, now);
  const principal: RecipientPrincipal = {
    kind: "recipient",
    organizationId: pr.organizationId,
    paymentRequestId: pr.id,
    obligationId: pr.obligationId,
    sessionId: session.id,
  };
  const firstOpen = pr.firstOpenedAt === null;
  if (firstOpen) {
    await tx.paymentRequest.updateMany({ where: { id: pr.id, organizationId: pr.organizationId, firstOpenedAt: null }, data: { firstOpenedAt: now } });
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
  const pr = await tx.paymentRequest.findUnique({ where: { tokenHash: tokenHash(input.token) } });
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
  const token = randomToken(32);
  await tx.recipientSession.create({
    data: {
      id,
      organizationId: pr.organizationId,
      paymentRequestId: pr.id,
      issueNumber: pr.issueNumber,
      tokenHash: sha256Hex(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + recipientSessionTtlMs()),
    },
  });
  return { id, token };
}
