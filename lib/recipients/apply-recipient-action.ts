import type { Tx } from "@/lib/db";
import type { RecipientPrincipal } from "@/lib/auth/principal";
import { toDate } from "@/lib/schemas/common";
import type { TMutationResult } from "@/lib/schemas/obligations";
import type { TRecipientAction } from "@/lib/schemas/recipient";
import { invalidState, mutateObligation } from "@/lib/obligations/mutate-obligation";
import type { LoadedObligation } from "@/lib/obligations/view";
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
export type ApplyRecipientActionInput = { principal: RecipientPrincipal; action: TRecipientAction };

export async function applyRecipientAction(tx: Tx, input: ApplyRecipientActionInput): Promise<TMutationResult> {
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
  }
}

const isReconciled = (o: LoadedObligation) => o.status === "PARTIALLY_RECONCILED" || o.status === "RECONCILED";

// The counterparty of the organization: the debtor when the organization is the creditor.
const recipientName = (o: LoadedObligation) => (o.organizationRole === "creditor" ? o.debtorName : o.creditorName);
