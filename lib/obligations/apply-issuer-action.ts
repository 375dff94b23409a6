import type { Tx } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { toDate, todayUtc } from "@/lib/schemas/common";
import type { TIssuerAction, TMutationResult } from "@/lib/schemas/obligations";
import { invalidState, mutateObligation } from "@/lib/obligations/mutate-obligation";
import type { LoadedObligation } from "@/lib/obligations/load";
import { toDisputeView } from "@/lib/obligations/view";
import { postMessage } from "@/lib/obligations/post-message";
import { amendObligation } from "@/lib/obligations/amend-obligation";
import { reissuePaymentRequest, revokePaymentRequest } from "@/lib/payment-requests/revoke-reissue";

export type ApplyIssuerActionInput = { organizationId: string; obligationId: string; principal: Principal; action: TIssuerAction; obligationType?: string };

// POST /obligations/{id}/actions and /invoices/{id}/actions: the issuer's actions
// (`ZIssuerAction`, one body per action). Each bumps the version by exactly 1 and records its event.
export async function applyIssuerAction(tx: Tx, input: ApplyIssuerActionInput): Promise<TMutationResult> {
  const { action } = input;
  const base = {
    organizationId: input.organizationId,
    obligationId: input.obligationId,
    expectedVersion: action.expected_version,
    principal: input.principal,
    obligationType: input.obligationType,
  };
  switch (action.action) {
    case "mark_sent":
      return mutateObligation(tx, {
        ...base,
        eventType: "obligation.payment_requested",
        apply: (o) => {
          if (o.status !== "OBLIGATION_CAPTURED") throw invalidState(`mark_sent is only allowed from OBLIGATION_CAPTURED (status is ${o.status})`);
          return { status: "PAYMENT_REQUESTED" };
        },
      });
    case "revoke_link":
      return mutateObligation(tx, {
        ...base,
        eventType: "obligation.link_revoked",
        apply: async (o) => {
          const pr = currentRequest(o);
          if (pr.revokedAt) throw invalidState("the hosted link is already revoked");
          await revokePaymentRequest(tx, { organizationId: o.organizationId, paymentRequestId: pr.id });
        },
        detail: (o) => ({ payment_request_id: currentRequest(o).id }),
      });
    case "reissue_link":
      return mutateObligation(tx, {
        ...base,
        eventType: "obligation.link_reissued",
        paymentRequest: true,
        apply: async (o) => {
          if (o.status === "RECONCILED") throw invalidState("a RECONCILED obligation's link cannot be reissued");
          await reissuePaymentRequest(tx, { organizationId: o.organizationId, paymentRequestId: currentRequest(o).id });
        },
        detail: (o) => ({ payment_request_id: currentRequest(o).id, issue_number: currentRequest(o).issueNumber + 1 }),
      });
    case "set_expected_payment_date":
      return mutateObligation(tx, {
        ...base,
        eventType: "obligation.expected_payment_date_set",
        apply: () => ({ expectedPaymentDate: toDate(action.expected_payment_date) }),
        detail: { expected_payment_date: action.expected_payment_date },
      });
    case "post_message":
      return postMessage(tx, {
        ...base,
        authorType: "issuer",
        authorName: (o) => o.organizationName,
        message: action.message,
      });
    case "amend":
      return amendObligation(tx, { ...base, action });
    case "resolve_dispute":
      return mutateObligation(tx, {
        ...base,
        eventType: "obligation.dispute_resolved",
        apply: (o) => {
          if (o.disputeStatus !== "open") throw invalidState("this obligation has no open dispute");
          // next_scheduled_on becomes today (mutateObligation): the overdue events that waited go out at the next sweep.
          return { disputeStatus: action.outcome, disputeResolvedAt: new Date(), disputeResolutionMessage: action.message };
        },
        detail: { outcome: action.outcome },
        eventData: (after) => ({ dispute: toDisputeView(after) }),
      });
    case "waive_condition":
      return mutateObligation(tx, {
        ...base,
        eventType: "obligation.condition_waived",
        apply: async (o) => {
          const c = waitingCondition(o, action.condition_id);
          // A waived condition counts from the day it was waived (its satisfied_on).
          const n = await tx.obligationCondition.updateMany({
            where: { id: c.id, organizationId: o.organizationId, obligationId: o.id, status: "waiting" },
            data: { status: "waived", satisfiedOn: toDate(todayUtc()) },
          });
          if (n.count !== 1) throw invalidState("the condition is no longer waiting");
        },
        detail: (o) => ({ condition_id: action.condition_id, key: o.conditions.find((c) => c.id === action.condition_id)?.key ?? "" }),
      });
  }
}

export function currentRequest(o: LoadedObligation) {
  if (!o.paymentRequest) throw new Error(`obligation ${o.id} has no payment request`);
  return o.paymentRequest;
}

// The condition to satisfy or waive: 404 when it is not one of this obligation's,
// 409 invalid_state when it is no longer waiting.
export function waitingCondition(o: LoadedObligation, conditionId: string) {
  const c = o.conditions.find((x) => x.id === conditionId);
  if (!c) throw new AppError("not_found", "condition not found");
  if (c.status !== "waiting") throw invalidState(`the condition is already ${c.status}`);
  return c;
}
