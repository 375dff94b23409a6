import type { Tx } from "@/lib/db/client";
import { statement } from "@/lib/db/query";
import type { LoadedObligation } from "@/lib/obligations/load";

// The status an obligation has with `allocated` settled (after a reversal; docs/obligations.md, Lifecycle):
// RECONCILED when all of it, PARTIALLY_RECONCILED when some, else the status it would have
// had without any settlement: PAYMENT_CLAIMED if a payment was reported, else
// PAYMENT_REQUESTED if the link was sent or opened, else OBLIGATION_CAPTURED.
export async function settledStatus(tx: Tx, input: { obligation: LoadedObligation; allocated: bigint }): Promise<string> {
  const { obligation: o, allocated } = input;
  if (allocated >= o.amountMinor) return "RECONCILED";
  if (allocated > 0n) return "PARTIALLY_RECONCILED";
  if (o.reportedPaymentDate) return "PAYMENT_CLAIMED";
  if (o.paymentRequest?.firstOpenedAt) return "PAYMENT_REQUESTED";
  const rows = await EVENT_TYPES.rows(tx, { org: o.organizationId, id: o.id });
  const types = new Set(rows.map((r) => r.type));
  if (types.has("obligation.payment_reported")) return "PAYMENT_CLAIMED";
  if (types.size > 0) return "PAYMENT_REQUESTED";
  return "OBLIGATION_CAPTURED";
}

// The obligation's events that move it past OBLIGATION_CAPTURED.
const EVENT_TYPES = statement((q, p: { org: string; id: string }) =>
  q
    .selectFrom("events")
    .select("type")
    .where("organization_id", "=", p.org)
    .where("obligation_id", "=", p.id)
    .where("type", "in", ["obligation.payment_reported", "obligation.payment_requested", "obligation.link_opened"]),
);
