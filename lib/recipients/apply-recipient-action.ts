import type { Tx } from "@/lib/db/client";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { toDate, todayUtc } from "@/lib/schemas/common";
import type { TMutationResult } from "@/lib/schemas/obligations";
import { PROMISE_HORIZON_DAYS, type TRecipientAction } from "@/lib/schemas/recipient";
import { addDays } from "@/lib/obligations/terms";
import { recordInboxItem, type InboxKind } from "@/lib/inbox/record-inbox-item";
import { invalidState, mutateObligation } from "@/lib/obligations/mutate-obligation";
import type { LoadedObligation } from "@/lib/obligations/load";
import { toDisputeView, toPromiseView } from "@/lib/obligations/view";
import { postMessage } from "@/lib/obligations/post-message";
import { env } from "@/lib/env";
import { assertPayerRoom } from "@/lib/recipients/payer-room";

// POST /recipient/actions (+ contexts): the link holder's actions (`ZRecipientAction`,
// docs/recipient-portal.md) on the one obligation of its session. Each takes
// `expected_version` (409 version_conflict when stale), bumps the version by exactly 1
// and records its event:
//   acknowledge     -> acknowledged = true (409 invalid_state when already acknowledged)
//   share_dates     -> expected_payment_date                      obligation.dates_shared
//   report_payment  -> reported_payment_date (+ amount, reference); status PAYMENT_CLAIMED
//                      unless already (PARTIALLY_)RECONCILED; settles nothing
//                                                                 obligation.payment_reported
//   post_message    -> a message in the thread, author "recipient" obligation.message_posted
//   dispute         -> dispute_* (status open; 409 while one is open)  obligation.disputed
//   promise_payment -> promise_* (status open, replacing an open one)  obligation.payment_promised
// Messages, reported payments, disputes and promises also land in the issuer's inbox
// (lib/inbox), in the same transaction.
export type ApplyRecipientActionInput = { principal: RecipientPrincipal; action: TRecipientAction };

export async function applyRecipientAction(tx: Tx, input: ApplyRecipientActionInput): Promise<TMutationResult> {
  const result = await applyAction(tx, input);
  const kind = INBOX_KIND[input.action.action];
  if (kind) {
    const { principal: p, action } = input;
    await recordInboxItem(tx, {
      organizationId: p.organizationId,
      obligationId: p.obligationId,
      kind,
      eventId: result.operation_id,
      detail: inboxDetail(action),
    });
  }
  return result;
}

const INBOX_KIND: Record<TRecipientAction["action"], InboxKind | null> = {
  acknowledge: null,
  share_dates: null,
  report_payment: "payment_reported",
  post_message: "message",
  dispute: "dispute",
  promise_payment: "promise",
};

// What the inbox line shows (the action's own fields, without expected_version).
function inboxDetail(action: TRecipientAction): Record<string, unknown> {
  const { action: _a, expected_version: _v, ...rest } = action;
  return rest;
}

async function applyAction(tx: Tx, input: ApplyRecipientActionInput): Promise<TMutationResult> {
  const { principal: p, action } = input;
  const base = { organizationId: p.organizationId, obligationId: p.obligationId, expectedVersion: action.expected_version, principal: p };
  switch (action.action) {
    case "acknowledge":
      return mutateObligation(tx, {
        ...base,
        eventType: "obligation.acknowledged",
        apply: (o) => {
          if (o.acknowledged) throw invalidState("the obligation is already acknowledged");
          return { acknowledged: true };
        },
      });
    case "share_dates":
      return mutateObligation(tx, {
        ...base,
        eventType: "obligation.dates_shared",
        apply: () => ({ expectedPaymentDate: toDate(action.expected_payment_date) }),
        detail: { expected_payment_date: action.expected_payment_date },
      });
    case "report_payment":
      return mutateObligation(tx, {
        ...base,
        eventType: "obligation.payment_reported",
        apply: (o) => ({
          reportedPaymentDate: toDate(action.reported_payment_date),
          reportedAmountMinor: action.amount_minor !== undefined ? BigInt(action.amount_minor) : null,
          reportedReference: action.reference ?? "",
          ...(isReconciled(o) ? {} : { status: "PAYMENT_CLAIMED" }),
        }),
        detail: (o) => ({
          reported_payment_date: action.reported_payment_date,
          ...(action.amount_minor !== undefined ? { amount_minor: action.amount_minor, currency: o.currency } : {}),
          ...(action.reference !== undefined ? { reference: action.reference } : {}),
          ...(action.note !== undefined ? { note: action.note } : {}),
        }),
      });
    case "post_message": {
      // bounded per obligation; beyond RECIPIENT_MESSAGE_WEBHOOKS_PER_HOUR in an hour a message
      // is recorded without webhook deliveries (docs/security.md, "Bounds")
      let lastHour = 0;
      return postMessage(tx, {
        ...base,
        authorType: "recipient",
        authorName: recipientName,
        message: action.message,
        guard: async () => {
          const room = await assertPayerRoom(tx, { ...base, messages: 1, bytes: Buffer.byteLength(action.message) });
          lastHour = room.messagesLastHour;
        },
        webhooks: () => lastHour < env().RECIPIENT_MESSAGE_WEBHOOKS_PER_HOUR,
      });
    }
    case "dispute":
      return mutateObligation(tx, {
        ...base,
        eventType: "obligation.disputed",
        apply: (o) => {
          if (o.disputeStatus === "open") throw invalidState("a dispute of this obligation is already open");
          const amount = action.amount_minor !== undefined ? BigInt(action.amount_minor) : null;
          if (amount !== null && amount > o.amountMinor) throw new AppError("validation_failed", "the disputed amount is more than the obligation's amount");
          return {
            disputeStatus: "open",
            disputeReason: action.reason,
            disputeMessage: action.message,
            disputeAmountMinor: amount,
            disputeOpenedAt: new Date(),
            disputeResolvedAt: null,
            disputeResolutionMessage: null,
          };
        },
        detail: { reason: action.reason, ...(action.amount_minor !== undefined ? { amount_minor: action.amount_minor } : {}) },
        eventData: (after) => ({ dispute: toDisputeView(after) }),
      });
    case "promise_payment":
      return mutateObligation(tx, {
        ...base,
        eventType: "obligation.payment_promised",
        apply: (o) => {
          const today = todayUtc();
          if (action.date < today) throw new AppError("validation_failed", `the promised date must be today (${today}) or later`);
          const horizon = addDays(today, PROMISE_HORIZON_DAYS);
          if (action.date > horizon)
            throw new AppError("validation_failed", `the promised date must be at most ${PROMISE_HORIZON_DAYS} days ahead (${horizon})`);
          const outstanding = o.amountMinor - o.allocatedMinor;
          if (outstanding <= 0n) throw invalidState("nothing is outstanding on this obligation");
          const amount = action.amount_minor !== undefined ? BigInt(action.amount_minor) : outstanding;
          if (amount > outstanding) throw new AppError("validation_failed", `the promised amount is more than what is outstanding (${outstanding})`);
          return {
            promiseStatus: "open",
            promiseDate: toDate(action.date),
            promiseAmountMinor: amount,
            promiseBaselineMinor: o.allocatedMinor,
            promiseMadeAt: new Date(),
            promiseDecidedAt: null,
          };
        },
        detail: (o) => ({ date: action.date, amount_minor: action.amount_minor ?? (o.amountMinor - o.allocatedMinor).toString() }),
        eventData: (after) => ({ promise: toPromiseView(after) }),
      });
  }
}

const isReconciled = (o: LoadedObligation) => o.status === "PARTIALLY_RECONCILED" || o.status === "RECONCILED";

// The counterparty of the organization: the debtor when the organization is the creditor.
const recipientName = (o: LoadedObligation) => (o.organizationRole === "creditor" ? o.debtorName : o.creditorName);
