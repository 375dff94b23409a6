import { z } from "zod";
import { ZTimestamp, ZUuid } from "@/lib/schemas/common";
import { ZPaymentTermItem } from "@/lib/schemas/obligations";

// Scheduled events (lib/scheduler/): the extra `data` of their webhook payloads and the
// summary of GET /cron/scheduler.

export const ZScheduledTerm = ZPaymentTermItem.extend({
  id: ZUuid.optional().meta({
    description: "Absent for the implicit term of an obligation without payment terms (triggered on registration, due on the deadline)",
  }),
}).meta({
  id: "ScheduledTerm",
  title: "ScheduledTerm",
  description: "obligation.term_payable and obligation.due: the payment term, as the obligation projection shows it",
});

export const ZExpiringPaymentRequest = z
  .strictObject({
    id: ZUuid,
    obligation_id: ZUuid,
    expires_at: ZTimestamp,
    revoked: z.literal(false),
  })
  .meta({
    description: "payment_request.expiring: the hosted link that expires within 7 days (its URL is not sent: GET /obligations/{id}/payment-request shows it)",
  });

const ZEmittedCounts = z
  .strictObject({
    "obligation.term_payable": z.number().int(),
    "obligation.due": z.number().int(),
    "obligation.overdue": z.number().int(),
    "payment_request.expiring": z.number().int(),
    "promise.kept": z.number().int(),
    "promise.broken": z.number().int(),
  })
  .meta({ description: "Events this sweep recorded, by type" });

export const ZSchedulerSummary = z
  .strictObject({
    claimed: z.number().int().meta({ description: "Obligations claimed (FOR UPDATE SKIP LOCKED) and examined" }),
    emitted: ZEmittedCounts,
    duration_ms: z.number().int(),
    more: z.boolean().meta({ description: "true when the sweep stopped at its budget while obligations were still due: call again" }),
  })
  .meta({ description: "What one scheduler sweep did" });

export type TSchedulerSummary = z.infer<typeof ZSchedulerSummary>;
